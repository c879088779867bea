import { expect } from 'chai';
import type { ArcaClient, ArcaClientOptions } from '../../../adapters/authority/arca/index.js';
import { createArcaClient } from '../../../adapters/authority/arca/index.js';
import type { ExpectedData } from '../../../adapters/authority/simulated/oracle.js';
import type { SimulatedAuthority } from '../../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../../adapters/authority/simulated/index.js';
import { createAuthorityClient } from '../../../app/authority.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import type { AuthorityFailureKind, KeySession } from '../../../core/ports/authority-client.js';
import { AuthorityFailure } from '../../../core/ports/authority-client.js';
import { createKeySessions } from '../../../core/use-cases/sync/key-sessions.js';
import { shiftedClock } from '../../support/clock.js';

// The arca adapter pointed at the simulated authority: one code path, every system, compared
// with exactly what the simulated authority says it serves, on the surface of docs/authority.md.

const internals = {
    today: '2026-11-20',
    person: '20123456786' as Cuit,
    monotributista: '20111111112' as Cuit,
    autonomo: '27234567891' as Cuit,
    entity: '30712345671' as Cuit,
    entities: ['30712345671', '30500010912', '33693450239', '30709876543', '34999032089'] as Cuit[],
    otherPerson: '20301234567' as Cuit,
    range: { fromDate: '2025-09-01', toDate: '2026-11-20' },         // more than 365 days: split

    client(sim: SimulatedAuthority, options: ArcaClientOptions = {}): ArcaClient {

        return createArcaClient({ baseUrl: sim.url, pollIntervalMs: 1, backoffMs: 1, maxBackoffMs: 5, timeoutMs: 2_000, pacingMs: { default: 0, 'fes.afip.gob.ar': 12 }, blockWaitMs: 50, clock: shiftedClock(`${internals.today}T12:00:00Z`), ...options });
    },

    async failureOf(promise: Promise<unknown>): Promise<AuthorityFailure> {

        try {
            await promise;
        }
        catch (err) {
            expect(err).to.be.instanceOf(AuthorityFailure);
            return err as AuthorityFailure;
        }

        throw new Error('expected a failure');
    },

    async kindOf(promise: Promise<unknown>): Promise<AuthorityFailureKind> {

        return (await internals.failureOf(promise)).kind;
    },

    async everything(session: KeySession, cuit: Cuit) {

        const taxpayer = session.taxpayer(cuit);
        return {
            issued: await taxpayer.invoices('issued', internals.range),
            received: await taxpayer.invoices('received', internals.range),
            registry: cuit.startsWith('3') ? null : await taxpayer.registry(),
            sct: await taxpayer.sct(),
            ccma: await taxpayer.ccma(),
            notifications: await taxpayer.notifications()
        };
    },

    // The registry as read: the classification, with ARCA's meter where one is read.
    registryOf(expected: ExpectedData) {

        return expected.meter ? { ...expected.registry, meter: expected.meter } : expected.registry;
    },

    expectedOf(sim: SimulatedAuthority, cuit: Cuit) {

        const expected = sim.expected(cuit);
        const { establishments: _ignored, ...sct } = expected.sct;
        return {
            issued: expected.invoicesIn('issued', internals.range),
            received: expected.invoicesIn('received', internals.range),
            registry: cuit.startsWith('3') ? null : internals.registryOf(expected),
            sct,
            ccma: expected.ccma,
            notifications: expected.notifications
        };
    }
};

describe('arca adapter against the simulated authority', () => {

    let sim: SimulatedAuthority;

    before(async () => {

        sim = await startSimulatedAuthority({ today: internals.today, fesMinGapMs: 10, relations: { [internals.person]: [internals.entity] } });
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
        it(`fetches every system for ${label}, exactly as served`, async () => {

            const session = await internals.client(sim).login({ loginCuit: login, password: 'clave-buena' });
            try {
                expect(await internals.everything(session, represented)).to.deep.equal(internals.expectedOf(sim, represented));
                expect(sim.detailsOpened(represented)).to.deep.equal([]);
            }
            finally {
                await session.close();
            }
        });
    }

    it('a representative of five legal entities: one login for the day, each entity read after selecting it in each service', async () => {

        const five = await startSimulatedAuthority({ today: internals.today, fesMinGapMs: 10, relations: { [internals.person]: internals.entities } });
        try {
            const client = internals.client(five);
            const sessions = createKeySessions(client, { now: () => new Date(`${internals.today}T12:00:00Z`) });
            for (const cuit of [internals.person, ...internals.entities]) {
                const lease = await sessions.acquire({ keyId: 'maria', accountId: 1, loginCuit: internals.person, password: 'clave-buena' });
                try {
                    expect(await internals.everything(lease.session, cuit), cuit).to.deep.equal(internals.expectedOf(five, cuit));
                }
                finally {
                    lease.release();
                }
            }

            await sessions.close();
            expect(five.stats().logins).to.equal(1);
            expect(five.stats().portalSessions).to.equal(1);
            expect(sessions.logins).to.equal(1);
            // Every read answered for the CUIT selected at that moment, in every service.
            for (const cuit of internals.entities) {
                const reads = five.reads().filter((read) => read.cuit === cuit).map((read) => read.what);
                expect(reads, cuit).to.include.members(['mcmp E', 'mcmp R', 'sct getDeudas', 'sct getVencimientos', 'sct getFaltasPresentacion', 'dfe']);
            }
        }
        finally {
            await five.stop();
        }
    });

    it('serves the monotributista with a category, movements and balances; US-format CCAM amounts read to the cent', async () => {

        const expected = sim.expected(internals.monotributista);
        expect(expected.registry.monotributista).to.equal(true);
        expect(expected.registry.categoria).to.match(/^[A-K]$/);
        expect(expected.ccma.movements.length).to.be.greaterThan(5);
        expect(Math.abs(expected.ccma.balances.saldoDeudor ?? 0) + Math.abs(expected.ccma.balances.saldoAcreedor ?? 0)).to.be.greaterThan(1000);
        expect(sim.expected(internals.autonomo).registry).to.deep.equal({ monotributista: false, autonomo: true, categoria: null });
    });

    for (const generation of [1, 2, 3] as const) {
        it(`reads the generation ${generation} CSV export`, async () => {

            const old = await startSimulatedAuthority({ today: internals.today, csvGeneration: generation, fesMinGapMs: 10 });
            try {
                const session = await internals.client(old).login({ loginCuit: internals.person, password: 'x' });
                const got = await session.taxpayer(internals.person).invoices('received', internals.range);
                await session.close();
                expect(got).to.deep.equal(old.expected(internals.person).invoicesIn('received', internals.range));
                if (generation === 1) {
                    expect(got.every((invoice) => invoice.otrosTributos === null)).to.equal(true);
                }
            }
            finally {
                await old.stop();
            }
        });
    }

    it('tells each login failure apart, every one after the password marked as such', async () => {

        const client = internals.client(sim);
        const login = (password: string, loginCuit: Cuit = internals.person) => internals.failureOf(client.login({ loginCuit, password }));
        for (const [password, kind] of [
            ['mala-clave', 'rejected_key'],
            ['bloqueada', 'blocked_key'],
            ['vencida', 'expired_key'],
            ['captcha', 'captcha'],
            ['segundo', 'second_factor']
        ] as const) {
            const failure = await login(password);
            expect([failure.kind, failure.touchedPassword], password).to.deep.equal([kind, true]);
        }

        const entity = await login('x', internals.entity);
        expect([entity.kind, entity.touchedPassword]).to.deep.equal(['unexpected_page', false]);
    });

    it('asks for a CAPTCHA after several logins in a row, and the adapter stops before posting the password', async () => {

        const strict = await startSimulatedAuthority({ today: internals.today, captchaAfter: { logins: 2, windowMs: 60_000 } });
        try {
            const client = internals.client(strict);
            await (await client.login({ loginCuit: internals.person, password: 'x' })).close();
            await (await client.login({ loginCuit: internals.person, password: 'x' })).close();
            const third = await internals.failureOf(client.login({ loginCuit: internals.person, password: 'x' }));
            expect([third.kind, third.touchedPassword]).to.deep.equal(['captcha', false]);
            expect(strict.stats().logins).to.equal(2);
        }
        finally {
            await strict.stop();
        }
    });

    it('an expired jwt is an unexpected page after the password, never a retry', async () => {

        const quick = await startSimulatedAuthority({ today: internals.today, jwtTtlMs: -1 });
        try {
            const failure = await internals.failureOf(internals.client(quick, { retries: 5 }).login({ loginCuit: internals.person, password: 'x' }));
            expect([failure.kind, failure.touchedPassword]).to.deep.equal(['unexpected_page', true]);
            expect(quick.stats().logins).to.equal(1);
        }
        finally {
            await quick.stop();
        }
    });

    it('refuses a taxpayer the key does not reach, in every service', async () => {

        const session = await internals.client(sim).login({ loginCuit: internals.person, password: 'x' });
        try {
            const other = session.taxpayer(internals.otherPerson);
            expect(await internals.kindOf(other.invoices('issued', internals.range))).to.equal('represented_unavailable');
            expect(await internals.kindOf(other.sct())).to.equal('represented_unavailable');
            expect(await internals.kindOf(other.notifications())).to.equal('represented_unavailable');
            // No CCMA account for that CUIT here: nothing reported, never another CUIT's data.
            expect(await other.ccma()).to.deep.equal({ balances: { saldoDeudor: null, saldoAcreedor: null }, movements: [] });
        }
        finally {
            await session.close();
        }
    });

    it('reports a service not adhered (a 200 without token/sign) and keeps reading the others', async () => {

        const other = await startSimulatedAuthority({ today: internals.today, notAdhered: (_cuit, service) => service === 'ccam' });
        try {
            const session = await internals.client(other).login({ loginCuit: internals.person, password: 'x' });
            expect(await internals.kindOf(session.taxpayer(internals.person).ccma())).to.equal('not_adhered');
            expect(await session.taxpayer(internals.person).registry()).to.deep.equal(internals.registryOf(other.expected(internals.person)));
            await session.close();
        }
        finally {
            await other.stop();
        }
    });

    it('a burst on fes is answered "BL…": the adapter waits, reopens the service once, then gives fes up', async () => {

        const guarded = await startSimulatedAuthority({ today: internals.today, fesMinGapMs: 60_000 });
        try {
            const session = await internals.client(guarded, { pacingMs: { default: 0 } }).login({ loginCuit: internals.person, password: 'x' });
            const taxpayer = session.taxpayer(internals.person);
            expect(await internals.kindOf(taxpayer.invoices('issued', internals.range))).to.equal('firewall_block');
            const requests = guarded.stats().byHost['fes.afip.gob.ar'];
            expect(await internals.kindOf(taxpayer.invoices('received', internals.range))).to.equal('firewall_block');
            expect(guarded.stats().byHost['fes.afip.gob.ar']).to.equal(requests);
            expect(guarded.stats().blocks).to.equal(2);
            expect((await taxpayer.sct()).deuda).to.deep.equal(guarded.expected(internals.person).sct.deuda);
            await session.close();
        }
        finally {
            await guarded.stop();
        }
    });

    it('an expired fes session (15 minutes) is reopened once and the query goes on', async () => {

        const session = await internals.client(sim).login({ loginCuit: internals.person, password: 'x' });
        try {
            sim.script({ host: 'fes.afip.gob.ar', path: /ajax\.do/, answer: 'sessionExpired' });
            const got = await session.taxpayer(internals.person).invoices('issued', { fromDate: '2026-06-01', toDate: '2026-11-20' });
            expect(got).to.deep.equal(sim.expected(internals.person).invoicesIn('issued', { fromDate: '2026-06-01', toDate: '2026-11-20' }));
        }
        finally {
            await session.close();
        }
    });

    it('gets through injected 5xx and timeouts on reads by retrying them', async () => {

        const flaky = await startSimulatedAuthority({
            today: internals.today,
            fesMinGapMs: 0,
            failures: { serverError: 0.1, timeout: 0.03 },
            failureSeed: 7,
            timeoutHoldMs: 5_000
        });
        try {
            const client = internals.client(flaky, { retries: 8, timeoutMs: 500 });
            let session: KeySession | null = null;
            for (let attempt = 0; !session && attempt < 5; ++attempt) {
                session = await client.login({ loginCuit: internals.person, password: 'x' }).catch(() => null);
            }

            const expected = flaky.expected(internals.person);
            expect(await session!.taxpayer(internals.person).notifications()).to.deep.equal(expected.notifications);
            const { establishments: _ignored, ...sct } = expected.sct;
            expect(await session!.taxpayer(internals.person).sct()).to.deep.equal(sct);
            await session!.close();
        }
        finally {
            await flaky.stop();
        }
    });

    it('never posts a rejected key twice', async () => {

        const strict = await startSimulatedAuthority({ today: internals.today, failures: { rejectedKey: 1 } });
        try {
            expect(
                await internals.kindOf(internals.client(strict, { retries: 5 }).login({ loginCuit: internals.person, password: 'x' }))
            ).to.equal('rejected_key');
            expect(strict.stats().logins).to.equal(1);
        }
        finally {
            await strict.stop();
        }
    });

    it('keeps to the global concurrency across keys', async () => {

        const slow = await startSimulatedAuthority({ today: internals.today, latencyMs: 15 });
        try {
            const client = internals.client(slow, { concurrency: 2 });
            await Promise.all([internals.person, internals.monotributista, internals.autonomo, internals.otherPerson].map(async (cuit) => {

                const session = await client.login({ loginCuit: cuit, password: 'x' });
                await session.taxpayer(cuit).sct();
                await session.taxpayer(cuit).notifications();
                await session.close();
            }));
            expect(slow.stats().peakInFlight).to.equal(2);
        }
        finally {
            await slow.stop();
        }
    });

    it('builds the configured client: AUTHORITY=simulated in process', async () => {

        const authority = createAuthorityClient({ authority: 'simulated', authorityUrl: null });
        try {
            const session = await authority.login({ loginCuit: internals.person, password: 'x' });
            const simulated = (await authority.simulated())!;
            expect(await session.taxpayer(internals.person).registry()).to.deep.equal(internals.registryOf(simulated.expected(internals.person)));
            await session.close();
        }
        finally {
            await authority.close();
        }
    });

    it('AUTHORITY=simulated lets a person\'s key act for any legal entity, in process or run apart, unless a scenario refuses it', async () => {

        const [entity, refused] = ['30546676427', '30709876543'] as Cuit[];
        const inProcess = createAuthorityClient({ authority: 'simulated', authorityUrl: null });
        const apart = await startSimulatedAuthority({ today: internals.today, fesMinGapMs: 10 });
        const remote = createAuthorityClient({ authority: 'simulated', authorityUrl: apart.url }, { pacingMs: { default: 0, 'fes.afip.gob.ar': 12 }, clock: shiftedClock(`${internals.today}T12:00:00Z`) });
        try {
            const simulated = (await inProcess.simulated())!;
            simulated.refuse(internals.otherPerson, refused);
            apart.refuse(internals.otherPerson, refused);
            for (const [client, served] of [[inProcess, simulated], [remote, apart]] as const) {
                const session = await client.login({ loginCuit: internals.otherPerson, password: 'x' });
                const { establishments: _ignored, ...sct } = served.expected(entity).sct;
                expect(await session.taxpayer(entity).sct()).to.deep.equal(sct);
                expect(
                    await session.taxpayer(entity).invoices('issued', internals.range)
                ).to.deep.equal(served.expected(entity).invoicesIn('issued', internals.range));
                expect(await internals.kindOf(session.taxpayer(refused).sct())).to.equal('represented_unavailable');
                expect(await internals.kindOf(session.taxpayer(refused).notifications())).to.equal('represented_unavailable');
                await session.close();
            }
        }
        finally {
            await inProcess.close();
            await apart.stop();
        }
    });

    it('builds the configured client: AUTHORITY_URL routes every host to one server', async () => {

        const authority = createAuthorityClient({ authority: 'simulated', authorityUrl: sim.url });
        const session = await authority.login({ loginCuit: internals.person, password: 'x' });
        expect((await session.taxpayer(internals.person).notifications()).length).to.equal(sim.expected(internals.person).notifications.length);
        await session.close();
        expect(await authority.simulated()).to.equal(null);
    });
});
