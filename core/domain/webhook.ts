import { createHmac, randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { EventType } from './events.js';
import { eventTypes, isEventType } from './events.js';
import type { Timestamp } from './time.js';

// Signed webhooks (README: States and webhooks): what an endpoint may be, how a call is signed
// and when a failed delivery is tried again.

// Where an endpoint may point. In production: https to a public address. For development, an
// operator may allow http to the loopback (and the loopback itself); and may allow private
// networks (an integrator's receiver inside the same network). Cloud metadata never.
export interface TargetPolicy {
    allowHttpLoopback: boolean;
    allowPrivateNetworks: boolean;
}

const internals = {
    maxUrlLength: 2048,

    blockList(entries: readonly (readonly [string, number, 'ipv4' | 'ipv6'])[]): BlockList {

        const list = new BlockList();
        for (const [network, prefix, family] of entries) {
            list.addSubnet(network, prefix, family);
        }

        return list;
    },

    get loopback(): BlockList {

        return internals.blockList([['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']]);
    },

    // Private, shared, link-local, unspecified, multicast, reserved and documentation ranges.
    get private(): BlockList {

        return internals.blockList([
            ['0.0.0.0', 8, 'ipv4'], ['10.0.0.0', 8, 'ipv4'], ['100.64.0.0', 10, 'ipv4'], ['169.254.0.0', 16, 'ipv4'],
            ['172.16.0.0', 12, 'ipv4'], ['192.0.0.0', 24, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['198.18.0.0', 15, 'ipv4'],
            ['224.0.0.0', 3, 'ipv4'],
            ['::', 128, 'ipv6'], ['fc00::', 7, 'ipv6'], ['fe80::', 10, 'ipv6'], ['ff00::', 8, 'ipv6'], ['64:ff9b::', 96, 'ipv6'], ['2001:db8::', 32, 'ipv6']
        ]);
    },

    // Cloud metadata services (AWS, GCP, Azure, Alibaba, Oracle): never a webhook's target.
    get metadata(): BlockList {

        return internals.blockList(
            [['169.254.169.254', 32, 'ipv4'], ['169.254.170.2', 32, 'ipv4'], ['100.100.100.200', 32, 'ipv4'], ['fd00:ec2::254', 128, 'ipv6']]
        );
    },

    lists: null as { loopback: BlockList; private: BlockList; metadata: BlockList } | null,

    // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is checked as the IPv4 it is.
    unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {

        const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
        if (mapped) {
            return { address: mapped[1]!, family: 'ipv4' };
        }

        // The same, as URL writes it: ::ffff:c0a8:a is 192.168.0.10.
        const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
        if (hex) {
            const high = parseInt(hex[1]!, 16);
            const low = parseInt(hex[2]!, 16);
            return { address: [high >> 8, high & 255, low >> 8, low & 255].join('.'), family: 'ipv4' };
        }

        return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
    },

    loopbackNames: new Set(['localhost', 'localhost.localdomain', 'ip6-localhost']),
    metadataNames: new Set(['metadata.google.internal', 'metadata']),

    secretPrefix: 'whsec_',
    maxDelayMs: 6 * 60 * 60_000
};

const lists = () => {

    internals.lists ??= { loopback: internals.loopback, private: internals.private, metadata: internals.metadata };
    return internals.lists;
};

// Why an address may not be called (null: it may).
export const refusedAddress = (raw: string, policy: TargetPolicy): string | null => {

    const { address, family } = internals.unmapped(raw.replace(/^\[|\]$/g, ''));
    if (!isIP(address)) {
        return `La dirección ${raw} no es válida.`;
    }

    const { loopback, private: privateRanges, metadata } = lists();
    if (metadata.check(address, family)) {
        return `La dirección ${address} es de un servicio de metadatos de la nube: no se permite como destino de webhooks.`;
    }

    if (loopback.check(address, family)) {
        return policy.allowHttpLoopback || policy.allowPrivateNetworks ? null : `La dirección ${address} es local (loopback): no se permite como destino de webhooks.`;
    }

    if (privateRanges.check(address, family)) {
        return policy.allowPrivateNetworks ? null : `La dirección ${address} es privada, local o reservada: no se permite como destino de webhooks.`;
    }

    return null;
};

const isLoopbackHost = (host: string): boolean => {

    const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
    return internals.loopbackNames.has(bare) || (isIP(bare) !== 0 && lists().loopback.check(internals.unmapped(bare).address, internals.unmapped(bare).family));
};

// The endpoint URL's own rules, before any name is resolved: https (http only to the loopback
// when the operator allows it), no credentials in it, an address literal checked at once.
export const checkTargetUrl = (raw: string, policy: TargetPolicy): { url: URL } | { error: string } => {

    let url: URL;
    try {
        url = new URL(raw);
    }
    catch {
        return { error: 'La URL del webhook no es válida.' };
    }

    // The stored form (percent-encoded, so it may grow) fits its column (migration 011).
    if (url.toString().length > internals.maxUrlLength) {
        return { error: `La URL del webhook puede tener hasta ${internals.maxUrlLength} caracteres.` };
    }

    if (url.username || url.password) {
        return { error: 'La URL del webhook no puede llevar usuario ni contraseña.' };
    }

    const loopback = isLoopbackHost(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback && policy.allowHttpLoopback)) {
        return { error: 'La URL del webhook debe empezar con https:// (http solo hacia la máquina local, si el operador lo habilita para desarrollo).' };
    }

    if (internals.metadataNames.has(url.hostname.toLowerCase())) {
        return { error: `El nombre ${url.hostname} es de un servicio de metadatos de la nube: no se permite como destino de webhooks.` };
    }

    if (loopback && !policy.allowHttpLoopback && !policy.allowPrivateNetworks) {
        return { error: `El destino ${url.hostname} es la máquina local: no se permite como destino de webhooks.` };
    }

    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal)) {
        const refused = refusedAddress(literal, policy);
        if (refused) {
            return { error: refused };
        }
    }

    return { url };
};

// A new signing secret, shown once.
export const newSigningSecret = (): string => `${internals.secretPrefix}${randomBytes(32).toString('base64url')}`;

export const signatureHeader = 'Arcasync-Signature';

// Stripe's scheme: HMAC-SHA256 of "<timestamp>.<raw body>" with the secret, in one header with
// the timestamp (seconds), so a receiver rejects a forged body and a replayed old call alike.
export const sign = (secret: string, timestamp: number, body: string): string => `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

// Exponential back-off with full jitter: base, 2×base, 4×base… (at most 6 hours), each a
// random share of that, so receivers coming back are not hit by every sender at once.
export const retryDelayMs = (attempts: number, baseMs: number, random: () => number = Math.random): number => {

    const ceiling = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), internals.maxDelayMs);
    return Math.max(1, Math.round(ceiling * (0.5 + random() / 2)));
};

// How long an event is tried before it is given up (three days).
export const deliveryWindowMs = 3 * 24 * 60 * 60_000;

// An endpoint's circuit breaker: after this many failed calls in a row (an error answer, a
// timeout, a refused address) the endpoint is set aside for a pause, then one call probes it;
// each failed probe doubles the pause (the back-off's steps from its base, with jitter), up
// to an hour, so a receiver that comes back is called again within the hour.
export const breakerFailures = 3;

export const breakerPauseMs = (failures: number, baseMs: number, random: () => number = Math.random): number | null => (failures < breakerFailures
    ? null
    : Math.min(retryDelayMs(failures - breakerFailures + 1, baseMs, random), 60 * 60_000));

// The types an endpoint listens to: '*' (every one) or a comma-separated list.
export const parseEventTypes = (raw: string | undefined): { types: readonly EventType[] | '*' } | { error: string } => {

    if (raw === undefined || raw.trim() === '' || raw.trim() === '*') {
        return { types: '*' };
    }

    const types = [...new Set(raw.split(',').map((type) => type.trim()).filter(Boolean))];
    const unknown = types.filter((type) => !isEventType(type));
    if (unknown.length) {
        return { error: `Tipos de evento desconocidos: ${unknown.join(', ')}. Los tipos son: ${eventTypes.join(', ')}.` };
    }

    return { types: types as EventType[] };
};

export const wantsEvent = (listened: string, type: string): boolean => listened === '*' || type === 'prueba' || listened.split(',').includes(type);

// The body every receiver gets, the same on every attempt.
export interface WebhookBody {
    id: string;
    tipo: string;
    fecha: string;
    cuenta: number;
    cuit: string | null;
    datos: unknown;
}

export const webhookBody = (event: {
    publicId: string;
    type: string;
    createdAt: Timestamp;
    accountId: number;
    cuit: string | null;
}, datos: unknown): string => JSON.stringify({
    id: event.publicId,
    tipo: event.type,
    fecha: new Date(event.createdAt).toISOString(),
    cuenta: event.accountId,
    cuit: event.cuit,
    datos
} satisfies WebhookBody);
