import { expect } from 'chai';
import type { ArcaClient } from '../adapters/authority/arca/index.js';
import { createArcaClient } from '../adapters/authority/arca/index.js';
import type { SimulatedAuthority } from '../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../adapters/authority/simulated/index.js';
import { createAuthorityClient } from '../app/authority.js';
import type { Cuit } from '../core/domain/cuit.js';
import type { InvoiceRecord } from '../core/domain/invoice.js';
import type { AuthorityFailureKind } from '../core/ports/authority-client.js';
import { AuthorityFailure } from '../core/ports/authority-client.js';

// The arca adapter pointed at the simulated authority: one code path, every system, compared
// with exactly what the simulated authority says it serves.

const internals = {
    today: '2026-11-20',
    person: '20123456786' as Cuit,
    monotributista: '20111111112' as Cuit,
    autonomo: '27234567891' as Cuit,
    entity: '30712345671' as Cuit,
    otherPerson: '20301234567' as Cuit,
    range: { fromDate: '2025-09-01', toDate: '2026-11-20' },         // more than 365 days: split

    client(sim: SimulatedAuthority, options: Parameters<typeof createArcaClient>[0] = {}): ArcaClient {

        return createArcaClient({ baseUrl: sim.url, pollIntervalMs: 1, backoffMs: 1, maxBackoffMs: 5, timeoutMs: 2_000, perHost: { intervalCap: 10_000, interval: 1_000 }, now: () => new Date(`${internals.today}T12:00:00Z`), ...options });
    },

    async failureOf(promise: Promise<unknown>): Promise<AuthorityFailureKind> {

        try {
            await promise;
        }
        catch (err) {
            expect(err).to.be.instanceOf(AuthorityFailure);
            return (err as AuthorityFailure).kind;
        }

        throw new Error('expected a failure');
    },

    withoutNames(list: InvoiceRecord[]): InvoiceRecord[] {

        return list.map((invoice) => ({ ...invoice, counterpart: { ...invoice.counterpart, nombre: null } }));
    }
};

describe('arca adapter against the simulated authority', () => {

    let sim: SimulatedAuthority;

    before(async () => {

        sim = await startSimulatedAuthority({ today: internals.today, canRepresent: (login, cuit) => login === cuit || cuit === internals.entity });
    });

    after(async () => {

        await sim.stop();
    });

    for (const [label, login, represented] of [
        ['a physical person', internals.person, internals.person],
        ['a monotributista', internals.monotributista, internals.monotributista],
        ['an autónomo', internals.autonomo, internals.autonomo],
        ['a legal entity through its representative', internals.person, internals.entity]
    ] as const) {
        it(`fetches every system for ${label}`, async () => {

            const client = internals.client(sim);
            const session = await client.login({ loginCuit: login, password: 'clave-buena', representedCuit: represented });
            try {
                const expected = sim.expected(represented);
                expect(await session.invoices('issued', internals.range)).to.deep.equal(expected.invoicesIn('issued', internals.range));
                expect(await session.invoices('received', internals.range)).to.deep.equal(expected.invoicesIn('received', internals.range));
                expect(await session.registry()).to.deep.equal(expected.registry);
                const { establishments: _ignored, ...sct } = expected.sct;
                expect(await session.sct()).to.deep.equal(sct);
                expect(await session.ccma()).to.deep.equal(expected.ccma);
                expect(await session.notifications()).to.deep.equal(expected.notifications);
                expect(sim.detailsOpened(represented)).to.deep.equal([]);
            }
            finally {
                await session.close();
            }
        });
    }

    it('serves the monotributista with a category, movements and balances', () => {

        const expected = sim.expected(internals.monotributista);
        expect(expected.registry.monotributista).to.equal(true);
        expect(expected.registry.categoria).to.match(/^[A-K]$/);
        expect(expected.ccma.movements.length).to.be.greaterThan(5);
        const summary = expected.summary(internals.range);
        expect(summary.issued.count).to.be.greaterThan(0);
        expect(summary.notifications.read + summary.notifications.unread).to.equal(summary.notifications.total);
        expect(sim.expected(internals.autonomo).registry).to.deep.equal({ monotributista: false, autonomo: true, categoria: null });
    });

    it('serves dollars and pesos, and is deterministic per CUIT', async () => {

        const again = await startSimulatedAuthority({ today: internals.today });
        try {
            expect(again.expected(internals.person).issued).to.deep.equal(sim.expected(internals.person).issued);
        }
        finally {
            await again.stop();
        }

        const all = [...sim.expected(internals.person).issued, ...sim.expected(internals.person).received, ...sim.expected(internals.entity).issued];
        expect(all.some((invoice) => invoice.monedaOriginal === 'DOL' && invoice.tipoCambio > 1)).to.equal(true);
        expect(all.filter((invoice) => invoice.monedaOriginal === 'PES').every((invoice) => invoice.tipoCambio === 1 && invoice.importe === invoice.importeOriginal)).to.equal(true);
    });

    it('reads invoices through the JSON pages as well (issued receptor names are not in the rows)', async () => {

        const client = internals.client(sim, { invoicesVia: 'json', pageSize: 7 });
        const session = await client.login({ loginCuit: internals.person, password: 'x', representedCuit: internals.entity });
        try {
            const expected = sim.expected(internals.entity);
            expect(await session.invoices('received', internals.range)).to.deep.equal(expected.invoicesIn('received', internals.range));
            expect(await session.invoices('issued', internals.range)).to.deep.equal(internals.withoutNames(expected.invoicesIn('issued', internals.range)));
        }
        finally {
            await session.close();
        }
    });

    for (const generation of [1, 2] as const) {
        it(`reads the generation ${generation} CSV export`, async () => {

            const old = await startSimulatedAuthority({ today: internals.today, csvGeneration: generation });
            try {
                const session = await internals.client(old).login({ loginCuit: internals.person, password: 'x', representedCuit: internals.person });
                const got = await session.invoices('received', internals.range);
                await session.close();
                const expected = old.expected(internals.person).invoicesIn('received', internals.range)
                    .map((invoice) => (generation === 1 ? { ...invoice, otrosTributos: null } : invoice));
                expect(got).to.deep.equal(expected);
            }
            finally {
                await old.stop();
            }
        });
    }

    it('tells each login failure apart', async () => {

        const client = internals.client(sim);
        const login = (password: string, loginCuit: Cuit = internals.person) => client.login({ loginCuit, password, representedCuit: loginCuit });
        expect(await internals.failureOf(login('mala-clave'))).to.equal('rejected_key');
        expect(await internals.failureOf(login('bloqueada'))).to.equal('blocked_key');
        expect(await internals.failureOf(login('vencida'))).to.equal('expired_key');
        expect(await internals.failureOf(login('captcha'))).to.equal('captcha');
        expect(await internals.failureOf(login('segundo'))).to.equal('second_factor');
        expect(await internals.failureOf(login('x', internals.entity))).to.equal('rejected_key');
    });

    it('refuses a represented taxpayer the representative cannot act for', async () => {

        const session = await internals.client(sim).login({ loginCuit: internals.person, password: 'x', representedCuit: internals.otherPerson });
        try {
            expect(await internals.failureOf(session.invoices('issued', internals.range))).to.equal('represented_unavailable');
            expect(await internals.failureOf(session.sct())).to.equal('represented_unavailable');
        }
        finally {
            await session.close();
        }
    });

    it('reports a service not adhered', async () => {

        const other = await startSimulatedAuthority({ today: internals.today, notAdhered: (_cuit, service) => service === 'ccma' });
        try {
            const session = await internals.client(other).login({ loginCuit: internals.person, password: 'x', representedCuit: internals.person });
            expect(await internals.failureOf(session.ccma())).to.equal('not_adhered');
            expect(await session.registry()).to.deep.equal(other.expected(internals.person).registry);
            await session.close();
        }
        finally {
            await other.stop();
        }
    });

    it('gets through injected 5xx, timeouts and malformed payloads by retrying', async () => {

        const flaky = await startSimulatedAuthority({ today: internals.today, failures: { serverError: 0.15, malformed: 0.15, timeout: 0.03 }, failureSeed: 7, timeoutHoldMs: 5_000 });
        try {
            const client = internals.client(flaky, { retries: 8, timeoutMs: 1_000 });
            const session = await client.login({ loginCuit: internals.person, password: 'x', representedCuit: internals.person });
            const expected = flaky.expected(internals.person);
            expect(await session.invoices('received', internals.range)).to.deep.equal(expected.invoicesIn('received', internals.range));
            expect(await session.notifications()).to.deep.equal(expected.notifications);
            const { establishments: _ignored, ...sct } = expected.sct;
            expect(await session.sct()).to.deep.equal(sct);
            await session.close();
            expect(client.transport.requests).to.be.greaterThan(flaky.stats().logins);
        }
        finally {
            await flaky.stop();
        }
    });

    it('never retries a rejected key', async () => {

        const strict = await startSimulatedAuthority({ today: internals.today, failures: { rejectedKey: 1 } });
        try {
            const client = internals.client(strict, { retries: 5 });
            expect(await internals.failureOf(client.login({ loginCuit: internals.person, password: 'x', representedCuit: internals.person }))).to.equal('rejected_key');
            expect(strict.stats().logins).to.equal(1);
        }
        finally {
            await strict.stop();
        }
    });

    it('keeps to the global concurrency across sessions', async () => {

        const slow = await startSimulatedAuthority({ today: internals.today, latencyMs: 15 });
        try {
            const client = internals.client(slow, { concurrency: 2 });
            await Promise.all([internals.person, internals.monotributista, internals.autonomo, internals.otherPerson].map(async (cuit) => {

                const session = await client.login({ loginCuit: cuit, password: 'x', representedCuit: cuit });
                await Promise.all([session.sct(), session.notifications(), session.registry()]);
                await session.close();
            }));
            expect(slow.stats().peakInFlight).to.equal(2);
        }
        finally {
            await slow.stop();
        }
    });

    it('keeps one session per login CUIT at a time', async () => {

        const client = internals.client(sim);
        const first = await client.login({ loginCuit: internals.person, password: 'x', representedCuit: internals.person });
        let secondOpen = false;
        const second = client.login({ loginCuit: internals.person, password: 'x', representedCuit: internals.entity }).then((session) => {

            secondOpen = true;
            return session;
        });
        const other = await client.login({ loginCuit: internals.monotributista, password: 'x', representedCuit: internals.monotributista });
        await other.close();
        expect(secondOpen).to.equal(false);
        await first.close();
        await (await second).close();
        expect(secondOpen).to.equal(true);
    });

    it('builds the configured client: AUTHORITY=simulated in process', async () => {

        const authority = createAuthorityClient({ authority: 'simulated', authorityUrl: null }, { now: () => new Date(`${internals.today}T12:00:00Z`) });
        try {
            const session = await authority.login({ loginCuit: internals.person, password: 'x', representedCuit: internals.person });
            const simulated = (await authority.simulated())!;
            expect(await session.registry()).to.deep.equal(simulated.expected(internals.person).registry);
            await session.close();
        }
        finally {
            await authority.close();
        }
    });

    it('builds the configured client: AUTHORITY_URL routes every host to one server', async () => {

        const authority = createAuthorityClient({ authority: 'simulated', authorityUrl: sim.url });
        const session = await authority.login({ loginCuit: internals.person, password: 'x', representedCuit: internals.person });
        expect((await session.notifications()).length).to.equal(sim.expected(internals.person).notifications.length);
        await session.close();
        expect(await authority.simulated()).to.equal(null);
    });
});
