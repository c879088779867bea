import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import mysql from 'mysql2';
import { listQueries, seekDay } from '../adapters/knex/fast/list-queries.js';
import { tokenPrincipalsSql } from '../adapters/knex/fast/token-lookup.js';
import { hashToken } from '../core/domain/token.js';
import { gcMsSoFar } from './gc-time.js';
import { statementsSent } from './statement-count.js';

// The lean floor: the statements the API sends for the read endpoints the integrator workload
// asks for, through the driver alone (mysql2's pool or better-sqlite3) behind a bare node:http
// handler that answers JSON.stringify of the rows. No rate limit, validation, routing
// framework, logging or mapping: what the database and Node allow for the same pages, to
// print the API's distance to it. The SQL is the API's own, from the same JavaScript: the
// token and CUIT lookup every request about a CUIT starts with (tokenPrincipalsSql, by the
// token's digest as the API stores it) and the lists' (adapters/knex/fast/list-queries.ts).
// GET /bench/counts answers the statements sent and the time spent in V8's collections so
// far. Prints its URL as one JSON line on stdout, serves until SIGTERM.

type Row = Record<string, unknown>;
type Query = (sql: string, bindings: unknown[]) => Promise<Row[]>;

const internals = {

    driver(databaseUrl: string): { dialect: 'sqlite' | 'mysql'; query: Query; close(): void } {

        if (databaseUrl.startsWith('sqlite:')) {
            const db = new Database(databaseUrl.slice('sqlite:'.length));
            db.pragma('journal_mode = WAL');
            const prepared = new Map<string, ReturnType<typeof db.prepare>>();
            return {
                dialect: 'sqlite',
                query: async (sql, bindings) => {

                    let statement = prepared.get(sql);
                    if (!statement) {
                        statement = db.prepare(sql);
                        prepared.set(sql, statement);
                    }

                    return statement.all(...bindings);
                },
                close: () => db.close()
            };
        }

        const url = new URL(databaseUrl);
        // The API's pool size on MySQL (adapters/knex/connection.ts).
        const pool = mysql.createPool({
            host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password),
            database: url.pathname.slice(1), connectionLimit: 10, charset: 'utf8mb4', timezone: 'Z', decimalNumbers: true, supportBigNumbers: true
        });
        return {
            dialect: 'mysql',
            query: (sql, bindings) => new Promise((resolve, reject) => pool.query(sql, bindings, (err, rows) => (err ? reject(err) : resolve(rows as Row[])))),
            close: () => pool.end()
        };
    },

    send(res: ServerResponse, status: number, body: unknown) {

        const text = JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        res.end(text);
    }
};

const driver = internals.driver(process.env.DATABASE_URL!);
const queries = listQueries(driver.dialect);
const { query } = driver;
const principalSql = tokenPrincipalsSql(1, 1);

const answer = async (req: IncomingMessage): Promise<unknown> => {

    const url = new URL(req.url!, 'http://lean');
    if (url.pathname === '/bench/counts') {
        return { statements: statementsSent(), gcMs: gcMsSoFar() };
    }

    const match = /^\/v1\/cuits\/(\d{11})\/(.+)$/.exec(url.pathname);
    if (!match) {
        return null;
    }

    // The caller's token and the CUIT it names, in the API's one statement.
    const [, cuit, rest] = match;
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [principal] = token === undefined ? [] : await query(principalSql, [cuit, hashToken(token)]);
    if (principal?.named_id === null || principal?.named_id === undefined) {
        return null;
    }

    const clientId = Number(principal.named_id);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const pagination = (count: Row[]) => ({ limit, offset, total: Number(count[0]?.count ?? 0) });
    switch (rest) {
        case 'mis-comprobantes/emitidos':
        case 'mis-comprobantes/recibidos': {
            const kind = rest.endsWith('emitidos') ? 'E' : 'R';
            const to = url.searchParams.get('to_date');
            const start = seekDay(await query(queries.invoices.days, [clientId, kind, url.searchParams.get('from_date'), to]), offset);
            const data = start.from === null ? [] : await query(queries.invoices.page, [clientId, kind, start.from, to, limit, start.skip]);
            return { data, pagination: { limit, offset, total: start.total } };
        }

        case 'sct': {
            const [deuda, vencimientos, ddjj] = await Promise.all(['sct_debts', 'sct_due_dates', 'sct_returns'].map((table) => query(`select t.* from ${table} t where t.client_id = ? order by t.position asc`, [clientId])));
            return { data: { deuda, vencimientos, ddjj } };
        }

        case 'ccma':
            return { data: (await query('select saldo_deudor, saldo_acreedor from ccma_balances where client_id = ?', [clientId]))[0] ?? null };

        case 'ccma/movimientos': {
            const [count, periods] = await Promise.all([query(queries.ccma.count, [clientId]), query(queries.ccma.periods, [clientId, limit, offset])]);
            const keys = periods.map((row) => row.period_key);
            return { data: keys.length ? await query(queries.ccma.movements(keys.length), [clientId, ...keys]) : [], pagination: pagination(count) };
        }

        case 'dfe': {
            const [count, data] = await Promise.all(
                [query(queries.notifications.count, [clientId]), query(queries.notifications.page, [clientId, limit, offset])]
            );
            return { data, pagination: pagination(count) };
        }

        default:
            return null;
    }
};

const server = createServer((req, res) => {

    answer(req).then(
        (body) => internals.send(res, body === null ? 404 : 200, body ?? { error: 'no encontrado' }),
        (err: Error) => internals.send(res, 500, { error: err.message })
    );
});

server.listen(0, '127.0.0.1', () => {

    const address = server.address() as { port: number };
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${address.port}`, pid: process.pid })}\n`);
});

process.once('SIGTERM', () => server.close(() => {

    driver.close();
    process.exit(0);
}));
