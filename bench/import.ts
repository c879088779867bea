import { randomUUID } from 'node:crypto';
import { createLogger } from '../app/logger.js';
import { createAccount } from '../core/use-cases/staff/create-account.js';
import { createUser } from '../core/use-cases/staff/create-user.js';
import { setPassword } from '../core/use-cases/staff/set-password.js';
import { createHttpServer } from '../servers/http/server.js';
import { openBenchApp, runOnDatabases } from './portfolio-seed.js';

// npm run bench:import -- [--db sqlite|mysql|both] [--clients 1000] [--requests 3]
//
// The panel's client import (issue 40, item 2): a CSV of --clients rows (nine people in ten,
// each tenth row a legal entity represented by the person before it) uploaded to
// /panel/clientes/importar and confirmed, over HTTP as a browser does it, the app composed
// like `arcasync serve` in this process. Prints the preview (upload, every row checked, the
// pending import sealed and stored) and the confirmation (rows checked again, clients, first
// sync jobs and keys stored) apart, for --requests imports of fresh CUITs into one account
// (each later one meets a larger account). The target: 1,000 rows in seconds.
// (BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/ names the MariaDB server; a database of its
// own is created beside it and dropped.)

const internals = {
    password: 'bench-import-clave-larga',
    header: 'tipo;cuit;nombre;apellido;razon_social;representante;clave_arca;email;telefono',

    csv(rows: number, run: number): string {

        const cuit = (prefix: string, i: number) => `${prefix}${String(run * 1_000_000 + i).padStart(8, '0')}${i % 10}`;
        const lines = [internals.header];
        for (let i = 0; i < rows; ++i) {
            lines.push(i % 10 === 9
                ? `persona-juridica;${cuit('30', i)};;;Empresa ${i} SRL;${cuit('20', i - 1)};;administracion${i}@example.com;`
                : `persona-fisica;${cuit('20', i)};Nombre ${i};Apellido ${i};;;clave-${randomUUID()};persona${i}@example.com;+54 11 4000-${String(i).padStart(4, '0')}`);
        }

        return `\uFEFF${lines.join('\r\n')}\r\n`;
    },

    async signIn(base: string, email: string): Promise<string> {

        const form = await fetch(`${base}/panel/ingresar`);
        const cookies = form.headers.getSetCookie().map((line) => line.split(';')[0]!);
        const signedIn = await fetch(`${base}/panel/ingresar`, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies.join('; ') },
            body: new URLSearchParams({ email, password: internals.password, ...internals.crumb(await form.text()) }).toString()
        });
        if (signedIn.status !== 303) {
            throw new Error(`sign-in: ${signedIn.status}`);
        }

        return [...cookies, ...signedIn.headers.getSetCookie().map((line) => line.split(';')[0]!)].join('; ');
    },

    crumb(html: string): Record<string, string> {

        const [, name, value] = /<input type="hidden" name="([^"]+)" value="([^"]*)">/.exec(html)!;
        return { [name!]: value! };
    },

    async timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {

        const started = process.hrtime.bigint();
        const value = await work();
        return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
    },

    async run(db: 'sqlite' | 'mysql', rows: number, runs: number): Promise<void> {

        const { app, name, close } = await openBenchApp(db, 'import');
        try {
            const { id: accountId } = await createAccount(app.ports, { name: 'Estudio Importación' });
            const email = `import-${randomUUID().slice(0, 8)}@example.com`;
            const { id: userId } = await createUser(app.ports, { accountId, email, role: 'owner' });
            await setPassword(app.ports, { userId, password: internals.password });
            const server = await createHttpServer(app.ports, { host: '127.0.0.1', port: 0, publicUrl: 'http://127.0.0.1', logger: createLogger({ level: 'error' }) });
            await server.start();
            try {
                const base = server.info.uri;
                const cookie = await internals.signIn(base, email);
                process.stdout.write(`\n${name}: importación de ${rows} filas (CSV), ${runs} veces en una cuenta\n`);
                process.stdout.write(`${'corrida'.padEnd(10)} ${'CUITs antes'.padStart(12)} ${'revisión'.padStart(12)} ${'confirmación'.padStart(14)} ${'filas/s'.padStart(9)}\n`);
                for (let run = 1; run <= runs; ++run) {
                    const before = await app.ports.accounts.countClients(accountId);
                    const page = await fetch(`${base}/panel/clientes/importar`, { headers: { cookie } });
                    const crumb = internals.crumb(await page.text());
                    const csv = internals.csv(rows, run);
                    const preview = await internals.timed(async () => {

                        const form = new FormData();
                        for (const [field, value] of Object.entries(crumb)) {
                            form.set(field, value);
                        }

                        form.set('archivo', new Blob([csv], { type: 'text/csv' }), 'clientes.csv');
                        const response = await fetch(`${base}/panel/clientes/importar`, { method: 'POST', headers: { cookie }, body: form });
                        return { status: response.status, html: await response.text() };
                    });
                    const id = /name="importacion" value="([^"]+)"/.exec(preview.value.html)?.[1];
                    if (preview.value.status !== 200 || !id) {
                        throw new Error(`preview: ${preview.value.status}`);
                    }

                    const confirm = await internals.timed(async () => {

                        const response = await fetch(`${base}/panel/clientes/importar/confirmar`, {
                            method: 'POST',
                            headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
                            body: new URLSearchParams({ ...crumb, importacion: id }).toString()
                        });
                        return { status: response.status, html: await response.text() };
                    });
                    const after = await app.ports.accounts.countClients(accountId);
                    if (confirm.value.status !== 200 || after - before !== rows) {
                        throw new Error(`confirm: ${confirm.value.status}, ${after - before} of ${rows} stored`);
                    }

                    process.stdout.write(`${String(run).padEnd(10)} ${String(before).padStart(12)} ${`${preview.ms.toFixed(0)} ms`.padStart(12)} ` +
                        `${`${confirm.ms.toFixed(0)} ms`.padStart(14)} ${String(Math.round(rows / ((preview.ms + confirm.ms) / 1000))).padStart(9)}\n`);
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

await runOnDatabases(1_000, (db, rows, requests) => internals.run(db, rows, Math.min(requests, 3)));
