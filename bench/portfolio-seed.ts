import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import type { App } from '../app/compose.js';
import { composeApp } from '../app/compose.js';
import { loadConfig } from '../app/config.js';
import { arcaDay } from '../core/domain/arca-day.js';
import { sortKey } from '../core/domain/client.js';
import { messages } from '../core/domain/messages.js';
import { syncSystems } from '../core/domain/sync-system.js';
import { benchDatabase } from './database.js';

// A portfolio in varied states for the health benches (estados.ts, panel.ts), written straight
// into the tables the sync writes (clients with their keys' identities, sync_states with their
// states, some of them rows from before the state was stored, refused keys, CAPTCHAs that ended
// a key's ARCA day), so only reads are measured. Legal entities have no Sistema Registral
// row: the panel shows them under "Otros".

const internals = {
    chunk: 400,

    cuitOf: (prefix: string, i: number): string => `${prefix}${String(10_000_000 + i).padStart(8, '0')}1`,

    // One account's portfolio: representatives with 10 legal entities each (a tenth of the
    // CUITs), the rest people; each CUIT's state picked by its number.
    async seed(knex: Knex, accountId: number, clients: number, now: number): Promise<void> {

        const day = arcaDay(now);
        const representatives = Math.floor(clients / 110);
        const persons = clients - representatives * 10;
        const digest = (i: number) => `${String(i).padStart(8, '0')}${'a'.repeat(56)}`;
        const rows: Record<string, unknown>[] = [];
        const person = (i: number, keyed: boolean) => ({
            public_id: randomUUID(),
            account_id: accountId,
            cuit: internals.cuitOf('20', i),
            tipo: 'persona-fisica',
            nombre: `Nombre${i}`,
            apellido: `Apellido${String(i).padStart(6, '0')}`,
            razon_social: null,
            representative_id: null,
            display_name: `Apellido${String(i).padStart(6, '0')}, Nombre${i}`,
            sort_name: sortKey(`Apellido${String(i).padStart(6, '0')}, Nombre${i}`),
            email: null,
            telefono: null,
            clave_arca: keyed ? 'sellada' : null,
            key_digest: keyed ? digest(i) : null,
            key_stored_at: keyed ? now - 86_400_000 : null,
            created_at: now,
            updated_at: now
        });
        for (let i = 0; i < persons; i++) {
            rows.push(person(i, i % 50 !== 7));
        }

        for (let i = 0; i < rows.length; i += internals.chunk) {
            await knex('clients').insert(rows.slice(i, i + internals.chunk));
        }

        const ids = await knex('clients').where({ account_id: accountId }).orderBy('id').pluck('id') as number[];
        const entities: Record<string, unknown>[] = [];
        for (let r = 0; r < representatives; r++) {
            for (let e = 0; e < 10; e++) {
                const n = r * 10 + e;
                const name = `Empresa ${String(n).padStart(6, '0')} SA`;
                entities.push({
                    public_id: randomUUID(),
                    account_id: accountId,
                    cuit: internals.cuitOf('30', n),
                    tipo: 'persona-juridica',
                    nombre: null,
                    apellido: null,
                    razon_social: name,
                    representative_id: ids[r * 37 % persons],
                    display_name: name,
                    sort_name: sortKey(name),
                    email: null,
                    telefono: null,
                    clave_arca: null,
                    key_digest: null,
                    key_stored_at: null,
                    created_at: now,
                    updated_at: now
                });
            }
        }

        for (let i = 0; i < entities.length; i += internals.chunk) {
            await knex('clients').insert(entities.slice(i, i + internals.chunk));
        }

        // Each CUIT's systems: most synced; some failing for a reason of the CUIT or of ARCA
        // (the state stored beside the error, or only the words, as rows from before); some
        // never attempted.
        const all = await knex('clients').select('id', 'tipo', 'key_digest').where({ account_id: accountId }).orderBy('id') as { id: number; tipo: string; key_digest: string | null }[];
        const failures: [string, string | null, string][] = [
            ['sct', 'no_adherido', messages.authority.not_adhered],
            ['ccma', 'arca_no_disponible', messages.authority.unavailable],
            ['dfe', 'espera_arca', messages.sync.loginsUsedToday],
            ['issued_invoices', 'formato_desconocido', messages.authority.unexpected_page],
            ['received_invoices', null, messages.authority.irregularities],
            ['sct', 'clave_rechazada', messages.authority.rejected_key],
            ['ccma', 'error', messages.sync.internal]
        ];
        let states: Record<string, unknown>[] = [];
        for (const [index, client] of all.entries()) {
            if (index % 23 === 5) {
                continue;
            }

            const failing = index % 4 === 1 ? failures[(index >> 2) % failures.length]! : null;
            for (const system of syncSystems) {
                if (system === 'registry' && client.tipo !== 'persona-fisica') {
                    continue;
                }

                const fails = failing !== null && failing[0] === system;
                states.push({
                    client_id: client.id,
                    system,
                    synced_at: fails && index % 3 === 0 ? null : now - 3_600_000,
                    last_attempt_at: now - 3_600_000,
                    last_error: fails ? `${failing[2]} (detalle ${index})` : null,
                    last_state: fails ? failing[1] : null,
                    failing_since: fails ? now - 7_200_000 : null
                });
            }

            if (states.length >= internals.chunk - 10) {
                await knex('sync_states').insert(states);
                states = [];
            }
        }

        if (states.length) {
            await knex('sync_states').insert(states);
        }

        // Refused keys (every 40th person) and keys whose ARCA day a CAPTCHA or a second
        // factor ended (every 60th).
        const keyed = all.filter((client) => client.key_digest !== null);
        const refused = keyed.filter((_, index) => index % 40 === 3)
            .map((client) => ({ client_id: client.id, key_fingerprint: client.key_digest, kind: 'rejected_key', failed_at: now - 86_400_000 }));
        for (let i = 0; i < refused.length; i += internals.chunk) {
            await knex('sync_key_failures').insert(refused.slice(i, i + internals.chunk));
        }

        const ended = keyed.filter((_, index) => index % 60 === 11).map((client, index) => ({
            key_cuit: '20000000001',
            key_id: client.key_digest,
            account_id: accountId,
            day,
            proven: true,
            relogin: false,
            started_at: now - 600_000,
            posted_at: now - 600_000,
            outcome: index % 2 ? 'second_factor' : 'captcha',
            ends_day: true
        }));
        for (let i = 0; i < ended.length; i += internals.chunk) {
            await knex('sync_login_attempts').insert(ended.slice(i, i + internals.chunk));
        }
    }
};

export const seedPortfolio = (knex: Knex, accountId: number, clients: number, now: number): Promise<void> => internals.seed(knex, accountId, clients, now);

// A bench's app on a fresh database of `db` (database.ts), composed like `arcasync serve`
// with the rate limits out of the way; `close` closes it and drops the database.
export const openBenchApp = async (db: 'sqlite' | 'mysql', label: string): Promise<{ app: App; name: string; close(): Promise<void> }> => {

    if (db === 'mysql') {
        process.env.DATABASE_URL = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/';
    }
    else {
        delete process.env.DATABASE_URL;
    }

    const database = await benchDatabase(label);
    const env = {
        ...process.env,
        DATABASE_URL: database.url,
        ARCASYNC_SECRET_KEY: randomBytes(32).toString('base64'),
        RATE_LIMIT_PER_MINUTE: '1000000000',
        RATE_LIMIT_PER_MONTH: '1000000000'
    };
    const app = await composeApp(loadConfig(env));
    return {
        app,
        name: database.name,
        async close() {

            await app.close();
            await database.drop();
        }
    };
};

// The command line both benches take (--db sqlite|mysql|both, --clients, --requests), and the
// run on each database it names.
export const runOnDatabases = async (
    defaultClients: number,
    run: (db: 'sqlite' | 'mysql', clients: number, requests: number) => Promise<void>
): Promise<void> => {

    const { values } = parseArgs({
        options: {
            db: { type: 'string', default: 'both' },
            clients: { type: 'string', default: String(defaultClients) },
            requests: { type: 'string', default: '10' }
        }
    });
    for (const db of values.db === 'both' ? ['sqlite', 'mysql'] as const : [values.db as 'sqlite' | 'mysql']) {
        await run(db, Number(values.clients), Number(values.requests));
    }
};
