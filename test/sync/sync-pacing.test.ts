import { testEnv } from '../support/app.js';
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { App } from '../../app/compose.js';
import { composeApp } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import { arcaHosts } from '../../adapters/authority/hosts.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { displayName, sortKey } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { builtCli } from '../support/build.js';
import { testDatabases } from '../support/databases.js';
import { seedAccount } from '../support/fixtures.js';

// Logins spread out (issue 27 item 4, docs/scaling.md): `sync` over ten keys starts their
// logins at least SYNC_LOGIN_GAP_MS apart and has at most SYNC_LOGINS_IN_FLIGHT of them in
// flight, as the simulated authority saw them (each login from its first request to auth to
// the jwt the portal takes). Two pacings, each where one limit is the one that holds: a gap
// longer than a login against a quick authority, and a cap that a slow authority's logins
// (each longer than two gaps) would exceed.

interface Pacing {
    title: string;
    gapMs: number;
    inFlight: number;
    latencyMs: number;
    keys: string[];
}

const internals = {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    secretKey: randomBytes(32).toString('base64'),
    keys: (series: number) => Array.from({ length: 10 }, (_, index) => `20${series}1000${String(index).padStart(3, '0')}1`),

    run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {

        const child = spawn(process.execPath, [builtCli(), ...args], { cwd: internals.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {

            output += chunk.toString();
        });
        child.stderr.on('data', (chunk: Buffer) => {

            output += chunk.toString();
        });
        return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
    },

    // The most logins that were ever in flight together.
    peakInFlight(logins: { at: number; lastAt: number }[]): number {

        const edges = logins.flatMap((login) => [{ at: login.at, step: 1 }, { at: login.lastAt, step: -1 }])
            .sort((a, b) => a.at - b.at || a.step - b.step);
        let current = 0;
        let peak = 0;
        for (const edge of edges) {
            current += edge.step;
            peak = Math.max(peak, current);
        }

        return peak;
    }
};

const pacings: Pacing[] = [
    { title: 'a gap longer than a login', gapMs: 300, inFlight: 4, latencyMs: 40, keys: internals.keys(3) },
    { title: 'a cap that slow logins would exceed', gapMs: 30, inFlight: 2, latencyMs: 120, keys: internals.keys(4) }
];

for (const database of testDatabases()) {

    describe(`login pacing against the simulated authority (${database.name})`, function () {

        this.timeout(120_000);
        let app: App;
        let release: () => Promise<void>;
        let accountId: number;

        before(async () => {

            const db = await database.create();
            release = db.release;
            app = await composeApp(loadConfig({ ...testEnv, DATABASE_URL: db.url, ARCASYNC_SECRET_KEY: internals.secretKey }));
            ({ accountId } = await seedAccount(app.ports));
        });

        after(async () => {

            await app.close();
            await release();
        });

        for (const pacing of pacings) {
            it(`starts the logins of ten keys no closer than the gap, never more in flight than the cap: ${pacing.title}`, async () => {

                // Only the login's hosts are slow: the systems read after it do not make the case.
                const authority = await startSimulatedAuthority({ port: 0, latencyMs: pacing.latencyMs, latencyHosts: [arcaHosts.auth, arcaHosts.portal] });
                try {
                    for (const cuit of pacing.keys) {
                        const names = { nombre: 'Ana', apellido: `Prueba ${cuit}`, razonSocial: null };
                        const name = displayName({ tipo: 'persona-fisica', ...names });
                        await app.ports.clients.insert({
                            publicId: randomUUID(), accountId, cuit: cuit as Cuit, tipo: 'persona-fisica', ...names, representativeId: null,
                            displayName: name, sortName: sortKey(name), email: null, telefono: null, sealedKey: app.ports.secretBox.seal('clave'),
                            keyDigest: await app.ports.keyIdentity.of(cuit as Cuit, 'clave'), createdAt: Date.now()
                        });
                    }

                    const env: NodeJS.ProcessEnv = {
                        ...process.env, DATABASE_URL: app.config.databaseUrl, ARCASYNC_SECRET_KEY: internals.secretKey, AUTHORITY: 'simulated', AUTHORITY_URL: authority.url,
                        LOG_LEVEL: 'silent', SYNC_LOGIN_GAP_MS: String(pacing.gapMs), SYNC_LOGINS_IN_FLIGHT: String(pacing.inFlight), SYNC_LOGINS_PER_MINUTE: '600'
                    };
                    delete env.TEST_MYSQL_URL;
                    const { code, output } = await internals.run(['sync', '--concurrency', '10', ...pacing.keys.flatMap((cuit) => ['--cuit', cuit])], env);
                    expect(code, output).to.equal(0);

                    const logins = authority.loginStarts();
                    expect(logins.map((login) => login.cuit).sort()).to.deep.equal(pacing.keys);
                    const gaps = logins.slice(1).map((login, index) => login.at - logins[index]!.at);
                    expect(Math.min(...gaps), `gaps between login starts (ms): ${gaps.join(', ')}`).to.be.at.least(pacing.gapMs);
                    expect(internals.peakInFlight(logins), JSON.stringify(logins)).to.be.at.most(pacing.inFlight);
                }
                finally {
                    await authority.stop();
                }
            });
        }
    });
}
