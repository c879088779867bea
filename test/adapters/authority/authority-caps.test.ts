import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createTransport } from '../../../adapters/authority/arca/http.js';
import { ZipTooLarge, readZip, writeZip } from '../../../adapters/authority/zip.js';
import { AuthorityFailure } from '../../../core/ports/authority-client.js';
import { failurePolicy } from '../../../core/use-cases/sync/sync-policy.js';

// Hostile authority downloads (issue 29, item 4): an answer past its cap is dropped as it
// arrives, a ZIP entry past its cap is refused as it inflates (a 0.4 MB archive inflating to
// 400 MB took a sync to 2.8 GB), and such a refusal waits for the next day's sync instead of
// being retried (caps made small here so the test moves kilobytes, not gigabytes).

describe('authority download caps', function () {

    this.timeout(30_000);

    it('refuses an answer larger than its cap as too_large, streamed, without retrying it (item 4)', async () => {

        let served = 0;
        const server = createServer((_req, res) => {

            served++;
            res.writeHead(200, { 'content-type': 'text/html' });
            const chunk = Buffer.alloc(64 * 1024, 'a');
            let sent = 0;
            const write = () => {

                while (sent < 200 && res.write(chunk)) {
                    sent++;
                }

                if (sent < 200) {
                    res.once('drain', write);
                }
                else {
                    res.end();
                }
            };
            write();
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        try {
            const transport = createTransport({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, responseCapBytes: 1024 * 1024, pacingMs: { default: 0 }, backoffMs: 1, maxBackoffMs: 1 });
            const session = transport.session();
            const refused = await session.request({ url: new URL('https://fes.afip.gob.ar/mcmp/jsp/comprobantes.do') }, (response) => response.body.length).then(() => null, (err: unknown) => err);
            session.close();
            expect(refused).to.be.instanceOf(AuthorityFailure);
            expect((refused as AuthorityFailure).kind).to.equal('too_large');
            expect(served, 'asked once, never again').to.equal(1);
            expect(failurePolicy.of('too_large', false)).to.deep.equal({ retry: false, minDelayMs: 0 });
        }
        finally {
            server.close();
        }
    });

    it('refuses a ZIP entry that inflates past its cap, and reads one within it (item 4)', () => {

        const bomb = writeZip([{ name: 'comprobantes.csv', data: Buffer.alloc(4 * 1024 * 1024) }]);
        expect(bomb.length).to.be.below(64 * 1024);
        expect(() => readZip(bomb, { entryBytes: 1024 * 1024, entries: 16 })).to.throw(ZipTooLarge);

        // A header that understates the size is caught while inflating.
        const lying = Buffer.from(bomb);
        for (let at = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) {
            lying.writeUInt32LE(10, at + 24);
        }

        expect(() => readZip(lying, { entryBytes: 1024 * 1024, entries: 16 })).to.throw();

        const many = writeZip(Array.from({ length: 20 }, (_, i) => ({ name: `parte-${i}.csv`, data: Buffer.from('a;b\n') })));
        expect(() => readZip(many, { entryBytes: 1024 * 1024, entries: 16 })).to.throw(ZipTooLarge);

        const fine = readZip(writeZip([{ name: 'comprobantes.csv', data: Buffer.from('Fecha;Tipo\n2026-03-01;1\n') }]));
        expect(fine.map((entry) => [entry.name, entry.data.toString()])).to.deep.equal([['comprobantes.csv', 'Fecha;Tipo\n2026-03-01;1\n']]);
    });
});
