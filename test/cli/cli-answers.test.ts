import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { noRateLimits } from '../support/endpoints.js';
import type { SeededUser } from '../support/fixtures.js';
import { seedAccount } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startTestServer, testClock } from '../support/server.js';

// docs/answers.md: staff load ARCA's new category table from a JSON file (refused, in Spanish,
// unless it has 11 increasing positive caps A–K), list what is loaded, and the control uses a
// new table from its vigenciaDesde on; a user's calendar address is made and revoked.

const internals = {
    dir: mkdtempSync(join(tmpdir(), 'arcasync-tablas-')),

    file(name: string, content: unknown): string {

        const path = join(internals.dir, name);
        writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
        return path;
    },

    august: {
        vigenciaDesde: '2026-08-01',
        fuente: 'ARCA, categorías vigentes desde agosto de 2026 (prueba)',
        topes: { A: 11e6, B: 16e6, C: 22e6, D: 28e6, E: 33e6, F: 41e6, G: 49e6, H: 75e6, I: 84e6, J: 96e6, K: 116e6 }
    }
};

// The tables written for the commands go with the run.
after(() => rmSync(internals.dir, { recursive: true, force: true }));

for (const database of testDatabases()) {

    describe(`arcasync monotributo and calendario (${database.name})`, function () {

        this.timeout(60_000);
        let server: TestServer;
        let user: SeededUser;
        const cli = (...args: string[]) => runCli(server.app.config.databaseUrl, args);

        before(async () => {

            server = await startTestServer(database, { rateLimits: noRateLimits, clock: testClock('2026-08-10T15:00:00Z'), inject: true });
            user = await seedAccount(server.app.ports);
        });

        after(async () => {

            await server?.stop();
        });

        it('lists the four tables the repository ships', async () => {

            const listed = await cli('monotributo', 'categorias', '--json');
            expect(listed.code, listed.stderr).to.equal(0);
            const { tablas } = JSON.parse(listed.stdout) as { tablas: { vigenciaDesde: string; topes: Record<string, number> }[] };
            expect(tablas.map((table) => table.vigenciaDesde)).to.deep.equal(['2024-08-01', '2025-02-01', '2025-08-01', '2026-02-01']);
            expect(tablas[3]!.topes.K).to.equal(108_357_084.05);
            const text = await cli('monotributo', 'categorias');
            expect(text.stdout).to.contain('Vigente desde 2026-02-01').and.to.contain('K  $ 108.357.084,05');
        });

        it('refuses a wrong table in Spanish and changes nothing', async () => {

            const wrong = await cli('monotributo', 'cargar', internals.file('mala.json', { ...internals.august, topes: { ...internals.august.topes, C: 1 } }));
            expect(wrong.code).to.not.equal(0);
            expect(wrong.stderr.trim()).to.equal('Error: El tope de la categoría C debe ser mayor que el de la B.');
            const broken = await cli('monotributo', 'cargar', internals.file('rota.json', '{"vigenciaDesde": '));
            expect(broken.stderr).to.contain('no es JSON válido');
            const missing = await cli('monotributo', 'cargar', join(internals.dir, 'no-existe.json'));
            expect(missing.stderr).to.contain('No se pudo leer el archivo');
            expect((await server.app.ports.answers.categoryTables()).map((table) => table.vigenciaDesde)).to.not.include('2026-08-01');
        });

        it('loads a new table, which the control then uses instead of the stale one', async () => {

            const before = await server.ok('/v1/monotributo', user.token);
            expect(before.tabla).to.include({ vigenciaDesde: '2026-02-01', desactualizada: true });
            expect(before.tabla.aviso).to.contain('se usa la más reciente, vigente desde 2026-02-01');

            const loaded = await cli('monotributo', 'cargar', internals.file('agosto.json', internals.august), '--json');
            expect(loaded.code, loaded.stderr).to.equal(0);
            expect(JSON.parse(loaded.stdout)).to.include({ vigenciaDesde: '2026-08-01', resultado: 'cargada' });
            const again = await cli('monotributo', 'cargar', internals.file('agosto.json', internals.august));
            expect(again.stdout).to.contain('Tabla reemplazada.');

            const after = await server.ok('/v1/monotributo', user.token);
            expect(after.tabla).to.deep.equal({ vigenciaDesde: '2026-08-01', fuente: internals.august.fuente, desactualizada: false, aviso: null });
        });

        it('makes a user\'s calendar address once and revokes it', async () => {

            const made = await cli('calendario', 'crear', '--user', String(user.userId), '--json');
            expect(made.code, made.stderr).to.equal(0);
            const { url } = JSON.parse(made.stdout) as { url: string };
            expect(url).to.match(/\/calendario\/asy_[\w-]+\.ics$/);
            const path = new URL(url).pathname;
            expect((await server.request(path, { token: null })).status).to.equal(200);

            const revoked = await cli('calendario', 'revocar', '--user', String(user.userId));
            expect(revoked.stdout.trim()).to.equal('Dirección del calendario revocada.');
            expect((await server.request(path, { token: null })).status).to.equal(401);
            const unknown = await cli('calendario', 'crear', '--user', '999999');
            expect(unknown.stderr.trim()).to.equal('Error: No existe el usuario 999999.');
        });
    });
}
