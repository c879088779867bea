import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTransport } from '../../adapters/authority/arca/http.js';
import type { Cuit } from '../../core/domain/cuit.js';
import type { AuthorityClient, LoginOptions } from '../../core/ports/authority-client.js';
import type { JobQueue } from '../../core/ports/job-queue.js';
import type { SyncDeps } from '../../core/use-cases/sync/deps.js';
import { createKeySessions } from '../../core/use-cases/sync/key-sessions.js';
import { startWorker } from '../../core/use-cases/sync/run-worker.js';
import { virtualClock } from '../support/clock.js';

// Who gets to ask next: the worker's claims on the queue, and the authority's request slots
// among key sessions (the one with the most work left first).

const internals = {
    // Lets every promise callback and immediate queued so far run.
    async settle(turns = 5): Promise<void> {

        for (let i = 0; i < turns; ++i) {
            await new Promise((resolve) => setImmediate(resolve));
        }
    },

    async until(condition: () => boolean): Promise<void> {

        for (let turns = 0; !condition(); ++turns) {
            expect(turns, 'never happened').to.be.below(10_000);
            await new Promise((resolve) => setImmediate(resolve));
        }
    },

    // A server that answers each request only when the test says so, and records the order in
    // which requests arrived.
    async heldServer(): Promise<{ url: string; arrived: string[]; answer(path: string): void; close(): Promise<void> }> {

        const arrived: string[] = [];
        const held = new Map<string, ServerResponse>();
        const server = createServer((req: IncomingMessage, res: ServerResponse) => {

            const path = new URL(req.url!, 'http://x').pathname.split('/').pop()!;
            arrived.push(path);
            held.set(path, res);
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return {
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            arrived,
            answer(path) {

                held.get(path)!.end('ok');
                held.delete(path);
            },
            close: () => new Promise<void>((resolve) => {

                server.closeAllConnections();
                server.close(() => resolve());
            })
        };
    }
};

describe('sync scheduling', () => {

    it('an idle worker asks the queue once per poll, not once per slot', async () => {

        let claims = 0;
        const jobQueue = {
            claim: async () => {

                claims++;
                return null;
            },
            counts: async () => ({ pending: 0, due: 0, running: 0 })
        } as unknown as JobQueue;
        const deps = { jobQueue, clock: { now: () => new Date() }, authority: {} as AuthorityClient } as unknown as SyncDeps;
        const worker = startWorker(deps, { owner: 'w', concurrency: 8, leaseMs: 60_000, pollMs: 60_000 });
        await internals.settle();
        expect(claims).to.equal(1);
        await worker.stop();
    });

    it('tells the authority how much work a key has left: the taxpayers waiting for it and the share of the current one not done', async () => {

        let workLeft: (() => number) | undefined;
        const authority: AuthorityClient = {
            async login(_key, options: LoginOptions = {}) {

                workLeft = options.workLeft;
                return { taxpayer: () => ({}) as never, close: async () => undefined };
            }
        };
        const sessions = createKeySessions(authority, { now: () => new Date('2026-03-02T12:00:00Z') });
        const key = { keyId: 'k', accountId: 1, loginCuit: '20123456786' as Cuit, password: 'clave' };
        const person = await sessions.acquire(key);
        expect(workLeft!()).to.equal(1);
        const waiting = sessions.acquire(key);
        expect(workLeft!()).to.equal(2);
        person.progress(0.5);
        expect(workLeft!()).to.equal(1.5);
        person.release();
        const entity = await waiting;
        expect(workLeft!()).to.equal(1);
        entity.progress(0.75);
        expect(workLeft!()).to.equal(0.25);
        entity.release();
        expect(workLeft!()).to.equal(0);
        await sessions.close();
    });

    it('gives a free request slot to the waiting session with the most work left, in arrival order among equals', async () => {

        const server = await internals.heldServer();
        try {
            const transport = createTransport({ baseUrl: server.url, concurrency: 1, clock: virtualClock('2026-03-02T12:00:00Z'), retries: 0 });
            const request = (session: ReturnType<typeof transport.session>, path: string) => session.request({ url: new URL(`https://fes.afip.gob.ar/${path}`) }, (response) => response.text());
            const busy = request(transport.session(), 'busy');
            await internals.settle();
            expect(server.arrived).to.deep.equal(['busy']);

            const light = request(transport.session({ priority: () => 0.5 }), 'light');
            const plain = request(transport.session(), 'plain');
            const heavy = request(transport.session({ priority: () => 2 }), 'heavy');
            const alsoLight = request(transport.session({ priority: () => 0.5 }), 'also-light');
            await internals.settle();
            // One slot: each request reaches the server once the one before it is answered.
            for (let answered = 0; answered < 5; ++answered) {
                await internals.until(() => server.arrived.length > answered);
                server.answer(server.arrived[answered]!);
            }

            expect(await Promise.all([busy, light, plain, heavy, alsoLight])).to.deep.equal(['ok', 'ok', 'ok', 'ok', 'ok']);
            expect(server.arrived).to.deep.equal(['busy', 'heavy', 'light', 'also-light', 'plain']);
        }
        finally {
            await server.close();
        }
    });
});
