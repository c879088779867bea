import { randomUUID } from 'node:crypto';
import { testOnlyDatabaseOf as databaseOf } from '../app/compose.js';
import { createLogger } from '../app/logger.js';
import { createAccount } from '../core/use-cases/staff/create-account.js';
import { createToken } from '../core/use-cases/staff/create-token.js';
import { createUser } from '../core/use-cases/staff/create-user.js';
import { setPassword } from '../core/use-cases/staff/set-password.js';
import { createHttpServer } from '../servers/http/server.js';
import { openBenchApp, runOnDatabases, seedPortfolio } from './portfolio-seed.js';

// npm run bench:panel -- [--db sqlite|mysql|both] [--clients 5000] [--requests 10]
//
// The panel's pages beside GET /v1/cuits for the same data (issue 38): one account of 5,000
// CUITs in varied states (portfolio-seed.ts, as bench:estados), the app composed like
// `arcasync serve`, in this process, answering over HTTP one request at a time; the panel read
// with a signed-in session cookie, the API with the owner's token. Prints per request the
// first answer (the portfolio's ranking not yet in the read cache), the median and slowest of
// --requests runs after it, and the HTML's weight (with the stylesheet and icon every page
// loads). The target: each panel page within 2x of GET /v1/cuits's median, under 100 KB.
// (BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/ names the MariaDB server; a database of its
// own is created beside it and dropped.)

const internals = {
    password: 'bench-panel-clave-larga',

    // A client with a year of invoices (100 issued and 40 received a month) and a year of SCT:
    // each tab of its page beside the API request that answers what the tab is about (`main`),
    // and beside the sum of the requests a client of the API makes to show the same (`sum`):
    // every tab's header shows the client's semáforo and sentence (GET …/estado), the
    // comprobantes tab both lists of the period (its 12-month chart has no API request).
    clientPages: (cuit: string, month: string) => {

        const api = {
            issued: `/v1/cuits/${cuit}/mis-comprobantes/emitidos?from_date=${month}-01&to_date=${month}-28&limit=50`,
            received: `/v1/cuits/${cuit}/mis-comprobantes/recibidos?from_date=${month}-01&to_date=${month}-28&limit=50`,
            sct: `/v1/cuits/${cuit}/sct`,
            health: `/v1/cuits/${cuit}/estado`
        };
        return [
            { label: 'GET …/mis-comprobantes/emitidos', path: api.issued, via: 'api' },
            { label: 'GET …/mis-comprobantes/recibidos', path: api.received, via: 'api' },
            { label: 'GET /v1/cuits/{cuit}/sct', path: api.sct, via: 'api' },
            { label: 'GET /v1/cuits/{cuit}/estado', path: api.health, via: 'api' },
            { label: 'panel: cliente, comprobantes', path: `/panel/clientes/${cuit}?desde=${month}-01&hasta=${month}-28`, via: 'panel', main: api.issued, sum: [api.issued, api.received, api.health] },
            { label: 'panel: cliente, cuenta tributaria', path: `/panel/clientes/${cuit}/cuenta-tributaria`, via: 'panel', main: api.sct, sum: [api.sct, api.health] },
            { label: 'panel: cliente, estado', path: `/panel/clientes/${cuit}/estado`, via: 'panel', main: api.health, sum: [api.health] }
        ] as const;
    },

    // A year of the SCT's lists, a month each.
    yearOfSct(now: number) {

        const today = new Date(now);
        const periods = Array.from({ length: 12 }, (_, back) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 1)))
            .map((first) => first.toISOString().slice(0, 7));
        const common = (period: string) => ({
            impuesto: '20 - MONOTRIBUTO', concepto: '19 - OBLIGACION MENSUAL', subconcepto: '19 - OBLIGACION MENSUAL', periodo: period.replace('-', ''), antCuota: '0'
        });
        return {
            deuda: periods.map((period) => ({
                ...common(period), establecimiento: '0', vencimiento: `${period}-20T03:00:00.000Z`, saldo: 42000, intResarcitorios: 350.5, intPunitorios: 0
            })),
            vencimientos: periods.map((period) => ({ ...common(period), vencimiento: `${period}-20T03:00:00.000Z`, detalle: 'Obligación mensual' })),
            ddjj: periods.map((period) => ({ ...common(period), establecimiento: '0', vencimiento: `${period}-20T03:00:00.000Z` }))
        };
    },

    yearOfInvoices(now: number) {

        const today = new Date(now);
        const monthOf = (back: number): string => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 10)).toISOString().slice(0, 7);
        const months = Array.from({ length: 12 }, (_, back) => monthOf(back));
        const of = (kind: 'issued' | 'received', count: number) => months.flatMap((month, m) => Array.from({ length: count }, (_, i) => ({
            fecha: `${month}-${String(1 + (i % 28)).padStart(2, '0')}`,
            tipo: kind === 'issued' ? '11' : '1',
            puntoVenta: '00002',
            numeroDesde: String(m * 1000 + i + 1).padStart(8, '0'),
            numeroHasta: String(m * 1000 + i + 1).padStart(8, '0'),
            codigoAutorizacion: '74123456789012',
            counterpart: { tipoDocumento: '80', numeroDocumento: '30712345671', nombre: `Contraparte ${i}` },
            impNetoGravado: 1000 + i,
            impNetoNoGravado: null,
            impOpExentas: null,
            otrosTributos: null,
            iva: 210,
            tipoCambio: 1,
            importeOriginal: 1210 + i,
            monedaOriginal: 'PES',
            importe: 1210 + i
        })));
        return { month: months[1]!, issued: of('issued', 100), received: of('received', 40) };
    },

    // [label, path, with the session (panel) or the token (API)].
    requests: [
        ['GET /v1/cuits?limit=50', '/v1/cuits?limit=50', 'api'],
        ['GET /v1/cuits?limit=50&offset=2500', '/v1/cuits?limit=50&offset=2500', 'api'],
        ['GET /v1/cuits?categoria=A&limit=50', '/v1/cuits?categoria=A&limit=50', 'api'],
        ['panel: primera página', '/panel', 'panel'],
        ['panel: página 50', '/panel?pagina=50', 'panel'],
        ['panel: requiere atención', '/panel?atencion=si', 'panel'],
        ['panel: estado=clave_rechazada', '/panel?estado=clave_rechazada', 'panel'],
        ['panel: búsqueda por nombre', '/panel?q=apellido0012', 'panel'],
        ['panel: búsqueda por CUIT', '/panel?q=20-1000004', 'panel'],
        ['GET /v1/vencimientos?limit=50', '/v1/vencimientos?limit=50', 'api'],
        ['panel: agenda', '/panel/agenda', 'panel']
    ] as const,

    async signIn(base: string, email: string): Promise<string> {

        const form = await fetch(`${base}/panel/ingresar`);
        const cookies = form.headers.getSetCookie().map((line) => line.split(';')[0]!);
        const [, name, value] = /<input type="hidden" name="([^"]+)" value="([^"]*)">/.exec(await form.text())!;
        const signedIn = await fetch(`${base}/panel/ingresar`, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies.join('; ') },
            body: new URLSearchParams({ email, password: internals.password, [name!]: value! }).toString()
        });
        if (signedIn.status !== 303) {
            throw new Error(`sign-in: ${signedIn.status}`);
        }

        return [...cookies, ...signedIn.headers.getSetCookie().map((line) => line.split(';')[0]!)].join('; ');
    },

    async run(db: 'sqlite' | 'mysql', clients: number, requests: number): Promise<void> {

        const { app, name, close } = await openBenchApp(db, 'panel');
        try {
            const now = app.ports.clock.now().getTime();
            const { id: accountId } = await createAccount(app.ports, { name: 'Estudio Panel' });
            const email = `panel-${randomUUID().slice(0, 8)}@example.com`;
            const { id: userId } = await createUser(app.ports, { accountId, email, role: 'owner' });
            await setPassword(app.ports, { userId, password: internals.password });
            const { token } = await createToken(app.ports, { userId });
            const seededAt = Date.now();
            await seedPortfolio(databaseOf(app), accountId, clients, now);
            // Seven in ten persons monotributistas with a category, as bench:answers: la cartera
            // reads each page's monotributistas' use of their cap (issue 41).
            await databaseOf(app)('clients').where({ account_id: accountId, tipo: 'persona-fisica' }).whereRaw('id % 10 < 7')
                .update({ monotributista: true, categoria: databaseOf(app).raw(`substr('ABCDEFGHIJK', (id % 11) + 1, 1)`) });
            await databaseOf(app).raw(db === 'mysql' ? 'ANALYZE TABLE clients, sync_states, sync_key_failures, sync_login_attempts' : 'ANALYZE');

            const server = await createHttpServer(app.ports, { host: '127.0.0.1', port: 0, publicUrl: 'http://127.0.0.1', logger: createLogger({ level: 'error' }) });
            await server.start();
            try {
                const base = server.info.uri;
                const cookie = await internals.signIn(base, email);
                const assets = await Promise.all(['/panel/estilos.css', '/panel/icono.svg'].map(async (path) => (await (await fetch(`${base}${path}`)).arrayBuffer()).byteLength));
                const assetBytes = assets.reduce((sum, bytes) => sum + bytes, 0);
                process.stdout.write(`\n${name}: ${clients} CUITs (sembrados en ${((Date.now() - seededAt) / 1000).toFixed(1)} s); hoja de estilos e ícono: ${(assetBytes / 1024).toFixed(1)} KB\n`);
                process.stdout.write(`${'pedido'.padEnd(38)} ${'primero'.padStart(9)} ${'mediana'.padStart(9)} ${'máx'.padStart(9)} ${'peso'.padStart(9)} ${'vs API'.padStart(7)} ${'vs suma'.padStart(16)}\n`);
                let api = 0;
                const client = (await databaseOf(app)('clients').select('id', 'cuit').where({ account_id: accountId, tipo: 'persona-fisica' }).orderBy('id').first()) as { id: number; cuit: string };
                const year = internals.yearOfInvoices(now);
                await app.ports.invoices.saveKinds(client.id, [{ kind: 'issued', invoices: year.issued }, { kind: 'received', invoices: year.received }], now);
                await app.ports.sct.replace(client.id, internals.yearOfSct(now), now);
                const medians = new Map<string, number>();
                const pages = [
                    ...internals.requests.map(([label, path, via]) => ({ label, path, via })),
                    ...internals.clientPages(client.cuit, year.month)
                ];
                // Round after round, each request in turn: a machine busy with other work slows
                // the API's requests and the pages alike, so their ratios hold better than their
                // times. The first round is each request's first answer.
                const times = pages.map(() => [] as number[]);
                const bytes = pages.map(() => 0);
                for (let round = 0; round <= requests; round++) {
                    for (const [index, { path, via }] of pages.entries()) {
                        const started = process.hrtime.bigint();
                        const response = await fetch(`${base}${path}`, { headers: via === 'api' ? { authorization: `Bearer ${token}` } : { cookie }, redirect: 'manual' });
                        const body = await response.arrayBuffer();
                        times[index]!.push(Number(process.hrtime.bigint() - started) / 1e6);
                        if (response.status !== 200) {
                            throw new Error(`${path}: ${response.status}`);
                        }

                        bytes[index] = body.byteLength + (via === 'panel' ? assetBytes : 0);
                    }
                }

                for (const [index, page] of pages.entries()) {
                    const { label, path, via } = page;
                    const first = times[index]!.shift()!;
                    const sorted = times[index]!.sort((a, b) => a - b);
                    const median = sorted[Math.floor(sorted.length / 2)]!;
                    medians.set(path, median);
                    // Each panel page against the API request listed before it (la cartera against the
                    // CUIT list, the agenda against GET /v1/vencimientos), a client's tab against its
                    // own (`main`) and against the sum of what shows the same through the API.
                    if (via === 'api' && (path === '/v1/cuits?limit=50' || path.startsWith('/v1/vencimientos'))) {
                        api = median;
                    }

                    const against = 'main' in page ? medians.get(page.main)! : api;
                    const ratio = via === 'panel' ? `${(median / against).toFixed(1)}x` : '';
                    const sum = 'sum' in page ? page.sum.reduce((total, each) => total + medians.get(each)!, 0) : null;
                    const versusSum = sum === null ? '' : `${(median / sum).toFixed(1)}x de ${sum.toFixed(1)} ms`;
                    process.stdout.write(`${label.padEnd(38)} ${`${first.toFixed(1)} ms`.padStart(9)} ${`${median.toFixed(1)} ms`.padStart(9)} ` +
                        `${`${sorted.at(-1)!.toFixed(1)} ms`.padStart(9)} ${`${(bytes[index]! / 1024).toFixed(1)} KB`.padStart(9)} ${ratio.padStart(7)} ${versusSum.padStart(16)}\n`);
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

await runOnDatabases(5_000, internals.run);
