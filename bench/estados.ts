import { randomUUID } from 'node:crypto';
import { testOnlyDatabaseOf as databaseOf } from '../app/compose.js';
import { createLogger } from '../app/logger.js';
import { createAccount } from '../core/use-cases/staff/create-account.js';
import { createToken } from '../core/use-cases/staff/create-token.js';
import { createUser } from '../core/use-cases/staff/create-user.js';
import { createHttpServer } from '../servers/http/server.js';
import { openBenchApp, runOnDatabases, seedPortfolio } from './portfolio-seed.js';
import { timedGet, timingLine } from './timed-get.js';

// npm run bench:estados -- [--db sqlite|mysql|both] [--clients 20000] [--requests 10]
//
// GET /v1/estados on one account of 20,000 CUITs in varied states (issue 36): the unfiltered
// page beside pages filtered by state and by attention, at the first page and deep ones. The
// portfolio is written straight into the tables the sync writes (clients with their keys'
// identities, sync_states with their states, some of them rows from before the state was
// stored, refused keys, CAPTCHAs that ended a key's ARCA day), so only the read is measured:
// the app composed like `arcasync serve`, in this process, answering over HTTP, one request
// at a time. Prints per request the median and slowest of --requests runs after one warm-up,
// and the total the page reports. (BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/ names the
// MariaDB server; a database of its own is created beside it and dropped.)

const internals = {

    queries: [
        ['sin filtro, primera página', 'limit=50'],
        ['sin filtro, página 380', 'limit=50&offset=19000'],
        ['estado=clave_rechazada', 'estado=clave_rechazada&limit=50'],
        ['estado=ok, página 100', 'estado=ok&limit=50&offset=5000'],
        ['estado=captcha&estado=segundo_factor', 'estado=captcha&estado=segundo_factor&limit=50'],
        ['requiere_atencion=true, página 20', 'requiere_atencion=true&limit=50&offset=1000'],
        ['requiere_atencion=false&estado=espera_arca', 'requiere_atencion=false&estado=espera_arca&limit=50']
    ] as const,

    async run(db: 'sqlite' | 'mysql', clients: number, requests: number): Promise<void> {

        const { app, name, close } = await openBenchApp(db, 'estados');
        try {
            const now = app.ports.clock.now().getTime();
            const { id: accountId } = await createAccount(app.ports, { name: 'Estudio Estados' });
            const { id: userId } = await createUser(app.ports, { accountId, email: `estados-${randomUUID().slice(0, 8)}@example.com`, role: 'owner' });
            const { token } = await createToken(app.ports, { userId });
            const seededAt = Date.now();
            await seedPortfolio(databaseOf(app), accountId, clients, now);
            if (db === 'mysql') {
                await databaseOf(app).raw('ANALYZE TABLE clients, sync_states, sync_key_failures, sync_login_attempts');
            }
            else {
                await databaseOf(app).raw('ANALYZE');
            }

            const server = await createHttpServer(app.ports, { host: '127.0.0.1', port: 0, publicUrl: 'http://127.0.0.1', logger: createLogger({ level: 'error' }) });
            await server.start();
            try {
                process.stdout.write(`\n${name}: ${clients} CUITs (sembrados en ${((Date.now() - seededAt) / 1000).toFixed(1)} s)\n`);
                process.stdout.write(`${'GET /v1/estados?…'.padEnd(48)} ${'mediana'.padStart(9)} ${'máx'.padStart(9)} ${'total'.padStart(7)}\n`);
                for (const [label, query] of internals.queries) {
                    process.stdout.write(timingLine(label, 48, await timedGet(`${server.info.uri}/v1/estados?${query}`, token, requests)));
                }
            }
            finally {
                await server.stop();
            }
        }
        finally {
            await close();
        }
    }
};

await runOnDatabases(20_000, internals.run);
