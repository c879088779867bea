import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { testOnlyDatabaseOf as databaseOf } from '../app/compose.js';
import { createLogger } from '../app/logger.js';
import { arcaDay, arcaDayStart } from '../core/domain/arca-day.js';
import { categories, sortKey } from '../core/domain/client.js';
import { addDays, addMonths, monthOf } from '../core/domain/months.js';
import { createAccount } from '../core/use-cases/staff/create-account.js';
import { createToken } from '../core/use-cases/staff/create-token.js';
import { createUser } from '../core/use-cases/staff/create-user.js';
import { createHttpServer } from '../servers/http/server.js';
import { openBenchApp, runOnDatabases } from './portfolio-seed.js';
import { timedGet, timingLine } from './timed-get.js';

// npm run bench:answers -- [--db sqlite|mysql|both] [--clients 5000] [--requests 10]
//
// The answers of issue 41 on one account of 5,000 CUITs, beside GET /v1/cuits: the portfolio's
// monotributo control (GET /v1/monotributo, one aggregate of a year of invoices by client and
// month) and the agenda (GET /v1/vencimientos). Seven in ten CUITs are monotributistas with a
// category, billing three class C invoices a month (one in twenty a credit note) and buying
// once; the rest are Responsables Inscriptos with A invoices both ways and SCT due dates and
// debts in the next month. Written straight into the tables the sync writes, so only the read
// is measured: the app composed like `arcasync serve`, in this process, answering over HTTP,
// one request at a time. Prints per request the median and slowest of --requests runs after
// one warm-up, and the total the page reports. (BENCH_MYSQL_URL names the MariaDB server; a
// database of its own is created beside it and dropped.)

const internals = {
    chunk: 400,

    queries: [
        ['GET /v1/cuits', '/v1/cuits?limit=50'],
        ['GET /v1/cuits, página 60', '/v1/cuits?limit=50&offset=3000'],
        ['GET /v1/monotributo', '/v1/monotributo?limit=50'],
        ['GET /v1/monotributo, página 60', '/v1/monotributo?limit=50&offset=3000'],
        ['GET /v1/monotributo?riesgo=tope_cerca', '/v1/monotributo?riesgo=tope_cerca&limit=50'],
        ['GET /v1/vencimientos (30 días)', '/v1/vencimientos?limit=50'],
        ['GET /v1/vencimientos, página 100', '/v1/vencimientos?limit=50&offset=5000'],
        ['GET /v1/vencimientos (366 días)', 'year']
    ] as const,

    cuitOf: (prefix: string, i: number): string => `${prefix}${String(10_000_000 + i).padStart(8, '0')}1`,

    async insert(knex: Knex, table: string, rows: Record<string, unknown>[]): Promise<void> {

        for (let i = 0; i < rows.length; i += internals.chunk) {
            await knex(table).insert(rows.slice(i, i + internals.chunk));
        }
    },

    invoice: (clientId: number, kind: 'E' | 'R', fecha: string, tipo: string, n: number, importe: number, iva: number) => ({
        client_id: clientId,
        kind,
        fecha,
        tipo,
        punto_venta: '1',
        numero_desde: String(n),
        numero_hasta: String(n),
        issuer_key: kind === 'E' ? '' : '30710000007',
        codigo_autorizacion: null,
        counterpart_doc_type: '80',
        counterpart_doc_number: '30712345671',
        counterpart_name: 'Contraparte SA',
        imp_neto_gravado: importe - iva,
        imp_neto_no_gravado: 0,
        imp_op_exentas: 0,
        otros_tributos: 0,
        iva,
        tipo_cambio: 1,
        importe_original: importe,
        moneda_original: 'PES',
        importe
    }),

    async seed(knex: Knex, accountId: number, clients: number, now: number): Promise<void> {

        const rows = Array.from({ length: clients }, (_, i) => {

            const name = `Apellido${String(i).padStart(6, '0')}, Nombre${i}`;
            const mono = i % 10 < 7;
            return {
                public_id: randomUUID(),
                account_id: accountId,
                cuit: internals.cuitOf(mono ? '20' : '30', i),
                tipo: 'persona-fisica',
                nombre: `Nombre${i}`,
                apellido: `Apellido${String(i).padStart(6, '0')}`,
                razon_social: null,
                representative_id: null,
                display_name: name,
                sort_name: sortKey(name),
                email: null,
                telefono: null,
                monotributista: mono,
                autonomo: false,
                categoria: mono ? categories[i % categories.length] : null,
                created_at: now,
                updated_at: now
            };
        });
        await internals.insert(knex, 'clients', rows);
        const all = await knex('clients').select('id', 'monotributista').where({ account_id: accountId }).orderBy('id') as { id: number; monotributista: number | boolean }[];

        // A year and a month of invoices, in batches of 200 clients.
        const thisMonth = monthOf(arcaDay(now));
        const months = Array.from({ length: 13 }, (_, k) => addMonths(thisMonth, -k));
        for (let start = 0; start < all.length; start += 200) {
            const invoices: Record<string, unknown>[] = [];
            for (const [offset, client] of all.slice(start, start + 200).entries()) {
                const index = start + offset;
                const scale = 200_000 + (index % 97) * 90_000;
                let n = 0;
                for (const mes of months) {
                    for (let k = 0; k < 3; k++) {
                        const mono = Boolean(client.monotributista);
                        const credit = (index + k + n) % 20 === 0;
                        const tipo = mono ? (credit ? '13' : '11') : (credit ? '3' : '1');
                        invoices.push(internals.invoice(client.id, 'E', `${mes}-${String(5 + k * 9).padStart(2, '0')}`, tipo, ++n, scale, mono ? 0 : Math.round(scale * 0.1736)));
                    }

                    invoices.push(internals.invoice(client.id, 'R', `${mes}-12`, client.monotributista ? '6' : '1', ++n, scale / 3, client.monotributista ? 0 : Math.round(scale / 3 * 0.1736)));
                }
            }

            await internals.insert(knex, 'invoices', invoices);
        }

        // The Responsables Inscriptos' SCT: two due dates and a debt in the next month.
        const today = arcaDay(now);
        const at = (days: number) => arcaDayStart(addDays(today, days)) + 3 * 3_600_000;
        const dueDates: Record<string, unknown>[] = [];
        const debts: Record<string, unknown>[] = [];
        for (const [index, client] of all.entries()) {
            if (client.monotributista) {
                continue;
            }

            for (const [position, days] of [index % 25, 10 + index % 15].entries()) {
                dueDates.push({ client_id: client.id, position, impuesto: '30 - IVA', concepto: '19 - Obligación mensual', subconcepto: '19 - Obligación mensual', periodo: '202610', ant_cuota: '0', vencimiento: at(days), detalle: 'Declaración jurada mensual' });
            }

            debts.push({ client_id: client.id, position: 0, establecimiento: '0', impuesto: '30 - IVA', concepto: '19 - Obligación mensual', subconcepto: '19 - Obligación mensual', periodo: '202609', ant_cuota: '0', vencimiento: at(index % 28), saldo: 15000, int_resarcitorios: 120, int_punitorios: 0 });
        }

        await internals.insert(knex, 'sct_due_dates', dueDates);
        await internals.insert(knex, 'sct_debts', debts);
    },

    async run(db: 'sqlite' | 'mysql', clients: number, requests: number): Promise<void> {

        const { app, name, close } = await openBenchApp(db, 'answers');
        try {
            const now = app.ports.clock.now().getTime();
            const { id: accountId } = await createAccount(app.ports, { name: 'Estudio Respuestas' });
            const { id: userId } = await createUser(app.ports, { accountId, email: `respuestas-${randomUUID().slice(0, 8)}@example.com`, role: 'owner' });
            const { token } = await createToken(app.ports, { userId });
            const seededAt = Date.now();
            await internals.seed(databaseOf(app), accountId, clients, now);
            await databaseOf(app).raw(db === 'mysql' ? 'ANALYZE TABLE clients, invoices, sct_due_dates, sct_debts, sct_returns' : 'ANALYZE');
            const invoices = Number((await databaseOf(app)('invoices').count({ count: '*' }).first() as { count: number | string }).count);

            const server = await createHttpServer(app.ports, { host: '127.0.0.1', port: 0, publicUrl: 'http://127.0.0.1', logger: createLogger({ level: 'error' }) });
            await server.start();
            try {
                const today = arcaDay(now);
                process.stdout.write(`\n${name}: ${clients} CUITs, ${invoices} comprobantes (sembrados en ${((Date.now() - seededAt) / 1000).toFixed(1)} s)\n`);
                process.stdout.write(`${'solicitud'.padEnd(44)} ${'mediana'.padStart(9)} ${'máx'.padStart(9)} ${'total'.padStart(7)}\n`);
                for (const [label, query] of internals.queries) {
                    const path = query === 'year' ? `/v1/vencimientos?desde=${today}&hasta=${addDays(today, 366)}&limit=50` : query;
                    process.stdout.write(timingLine(label, 44, await timedGet(`${server.info.uri}${path}`, token, requests)));
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

await runOnDatabases(5000, internals.run);
