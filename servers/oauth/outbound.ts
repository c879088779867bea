import { lookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

// Whatever the provider would fetch (a client's key set, a sector identifier: registration
// refuses both, see registration.ts), never from an address inside the host or its network:
// loopback, private, link-local (cloud metadata at 169.254.169.254), unique-local, CGNAT.

const internals = {
    blocked: (() => {

        const list = new BlockList();
        for (const [network, prefix] of [
            ['0.0.0.0', 8],
            ['10.0.0.0', 8],
            ['100.64.0.0', 10],
            ['127.0.0.0', 8],
            ['169.254.0.0', 16],
            ['172.16.0.0', 12],
            ['192.168.0.0', 16],
            ['224.0.0.0', 3]
        ] as const) {
            list.addSubnet(network, prefix, 'ipv4');
        }

        for (const [network, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
            list.addSubnet(network, prefix, 'ipv6');
        }

        return list;
    })(),

    refused: (address: string): Error => Object.assign(new Error(`address not allowed: ${address}`), { code: 'EADDRNOTALLOWED' })
};

const isInternalAddress = (address: string): boolean => {

    const version = isIP(address);
    if (version === 0) {
        return true;
    }

    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped) {
        return internals.blocked.check(mapped, 'ipv4');
    }

    return internals.blocked.check(address, version === 4 ? 'ipv4' : 'ipv6');
};

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

// dns.lookup, refusing names that resolve inside.
const publicLookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {

    lookup(hostname, { ...options, all: true }, (err, addresses) => {

        if (err) {
            return callback(err, []);
        }

        const inside = addresses.find((entry) => isInternalAddress(entry.address));
        if (inside) {
            return callback(internals.refused(inside.address), []);
        }

        return options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family);
    });
};

// oidc-provider's httpOptions: an address given as an IP inside is never asked (no lookup
// happens for those), names go through publicLookup.
export const outboundHttpOptions = (url: URL): { signal: AbortSignal; dnsLookup?: typeof lookup } => {

    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && isInternalAddress(host)) {
        return { signal: AbortSignal.abort(internals.refused(host)) };
    }

    // dns.lookup's overloads, of which got calls the callback form.
    return { signal: AbortSignal.timeout(2500), dnsLookup: publicLookup as unknown as typeof lookup };
};
