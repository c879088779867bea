import type { Knex } from 'knex';
import type { Principal } from '../../../core/domain/access.js';
import type { ClientListRow, ClientRecord, ClientType, DeletedWithClient } from '../../../core/domain/client.js';
import { deleteCascade } from '../../../core/domain/client.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import type { AccountClient, ClientChanges, ClientRepository, CreateClientOutcome, NewClient } from '../../../core/ports/index.js';
import { createHash } from 'node:crypto';
import { batched } from '../fast/batching.js';
import { dialectOf } from '../connection.js';
import { touchAccount, touchAccountOfClient } from '../data-versions.js';
import { isForeignKeyViolation, isLockConflict, isUniqueViolation } from '../errors.js';
import { retriedOnLockConflict } from '../lock-retries.js';
import { assignedToMember, clientColumns, clientConditions, toClientRecord } from '../client-rows.js';
import { clientTagsSql, clientsByCuitSql, visibleClientSql } from '../fast/client-reads.js';
import { listQueries } from '../fast/list-queries.js';
import { countOf, toNullableNumber, toNumber } from '../column-values.js';
import type { Binding } from '../fast/statements.js';
import { statements } from '../fast/statements.js';
import { pendingJobRow } from '../pending-job.js';

const internals = {
    columns: clientColumns(),

    toRow: (client: NewClient): Record<string, unknown> => ({
        public_id: client.publicId,
        account_id: client.accountId,
        cuit: client.cuit,
        tipo: client.tipo,
        nombre: client.nombre,
        apellido: client.apellido,
        razon_social: client.razonSocial,
        representative_id: client.representativeId,
        display_name: client.displayName,
        sort_name: client.sortName,
        email: client.email,
        telefono: client.telefono,
        clave_arca: client.sealedKey,
        key_digest: client.keyDigest,
        key_stored_at: client.sealedKey === null ? null : client.createdAt,
        created_at: client.createdAt,
        updated_at: client.createdAt
    }),

    changedColumns: {
        nombre: 'nombre',
        apellido: 'apellido',
        razonSocial: 'razon_social',
        representativeId: 'representative_id',
        displayName: 'display_name',
        sortName: 'sort_name',
        email: 'email',
        telefono: 'telefono',
        sealedKey: 'clave_arca',
        keyDigest: 'key_digest'
    } satisfies Record<keyof ClientChanges, string>,

    // The delete cascade (core/domain/client.ts) in this store's tables, deleted explicitly
    // with the client's row (the foreign keys cascade too, as a backstop).
    cascadeTables: {
        invoices: ['invoices', 'invoice_day_counts'],
        notifications: ['dfe_notifications'],
        sct: ['sct_debts', 'sct_due_dates', 'sct_returns'],
        ccma: ['ccma_balances', 'ccma_movements'],
        syncStates: ['sync_states', 'sync_changes'],
        syncJobs: ['sync_jobs'],
        keyFailure: ['sync_key_failures'],
        tags: ['client_tags'],
        managers: ['user_clients']
    } satisfies Record<DeletedWithClient, readonly string[]>,

    // Who sees what (client-rows.ts). The reads of every request use fixed SQL (see
    // statements.ts), so visibility is a WHERE fragment.
    visibleTo: (principal: Principal): { where: string; bindings: Binding[] } => visibleClientsWhere(principal),

    // A new key is tried by the service, as a new client's first sync is (the refused one it
    // replaces kept every CUIT it reaches from syncing): a job due now for the client and the
    // legal entities it represents, unless one is pending already (then it is made due now).
    async tryNewKey(trx: Knex.Transaction, id: number, at: number): Promise<void> {

        const reached = await trx('clients').select('id').where({ id }).orWhere({ representative_id: id }) as Record<string, unknown>[];
        for (const clientId of reached.map((client) => toNumber(client.id))) {
            const pending = await trx('sync_jobs').select('id').where({ client_id: clientId, status: 'pending' }).first() as Record<string, unknown> | undefined;
            if (pending) {
                await trx('sync_jobs').where({ id: pending.id }).andWhere('run_after', '>', at).update({ run_after: at });
            }
            else {
                await trx('sync_jobs').insert(pendingJobRow({ clientId, reason: 'manual', runAfter: at, createdAt: at }));
            }
        }
    },

    // Clients an import stores (or looks up) per transaction (statement): few transactions for
    // a thousand rows, each well under SQLite's and MySQL's limits on bound values.
    importChunk: 250,

    chunks: <T>(items: readonly T[], size: number): T[][] => Array.from(
        { length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size)
    ),

    // How refusals named a key before migration 014.
    sealedDigest: (sealed: string): string => createHash('sha256').update(sealed).digest('hex')
};

// The clients a principal sees, as a WHERE fragment on clients aliased `c` (docs/api.md,
// Access): an owner every client of its account, a member those assigned to it.
export const visibleClientsWhere = (principal: Principal): { where: string; bindings: Binding[] } => {

    if (principal.role === 'owner') {
        return { where: 'c.account_id = ?', bindings: [principal.accountId] };
    }

    return {
        where: `c.account_id = ? and ${assignedToMember('?')}`,
        bindings: [principal.accountId, principal.userId]
    };
};

export const clientRepository = (knex: Knex, sql = statements(knex)): ClientRepository => {

    // On MySQL the CUITs that owners' requests of one event-loop turn ask for are looked up
    // together, one statement per account (batching.ts).
    const findInAccounts = batched(async (lookups: readonly { accountId: number; cuit: Cuit }[]) => {

        const byAccount = new Map<number, Set<Cuit>>();
        for (const { accountId, cuit } of lookups) {
            byAccount.set(accountId, (byAccount.get(accountId) ?? new Set()).add(cuit));
        }

        const found = new Map<string, ClientRecord>();
        await Promise.all([...byAccount].map(async ([accountId, cuits]) => {

            const rows = await sql.all(clientsByCuitSql(cuits.size), [accountId, ...cuits]);
            for (const row of rows) {
                found.set(`${accountId}:${String(row.cuit)}`, toClientRecord(row));
            }
        }));

        return lookups.map(({ accountId, cuit }) => found.get(`${accountId}:${cuit}`) ?? null);
    });
    const mysql = dialectOf(knex) === 'mysql';
    const queries = listQueries(dialectOf(knex));

    return {

        async insert(client) {

            try {
                return await retriedOnLockConflict(() => knex.transaction(async (trx) => {

                    await touchAccount(trx, client.accountId);
                    const [id] = await trx('clients').insert(internals.toRow(client));
                    const row = await trx('clients as c').select(internals.columns).where('c.id', Number(id)).first();
                    return toClientRecord(row);
                }));
            }
            catch (err) {
                if (isUniqueViolation(err)) {
                    return null;
                }

                throw err;
            }
        },

        async create(client, options) {

            const attempt = (): Promise<CreateClientOutcome> => knex.transaction(async (trx) => {

                await touchAccount(trx, client.accountId);
                const [inserted] = await trx('clients').insert(internals.toRow(client));
                const id = Number(inserted);
                await trx('sync_jobs').insert(pendingJobRow({ clientId: id, reason: 'first', runAfter: client.createdAt, createdAt: client.createdAt }));
                if (options.managerUserId !== null) {
                    await trx('user_clients').insert({ user_id: options.managerUserId, client_id: id });
                }

                const row = await trx('clients as c').select(internals.columns).where('c.id', id).first();
                return { status: 'created', client: toClientRecord(row) };
            });

            // InnoDB may pick a waiting insert of the same CUIT as a deadlock victim; trying again
            // then meets the committed row and answers 'duplicate'. SQLite's busy database is
            // tried again too.
            try {
                return await retriedOnLockConflict(attempt, isLockConflict);
            }
            catch (err) {
                if (isUniqueViolation(err)) {
                    return { status: 'duplicate' };
                }

                if (isForeignKeyViolation(err)) {
                    return { status: 'representative_gone' };
                }

                throw err;
            }
        },

        async update(id, changes, at) {

            const row: Record<string, unknown> = { updated_at: at, data_version: knex.raw('data_version + 1') };
            if (changes.sealedKey !== undefined) {
                row.key_stored_at = at;
            }

            for (const [key, column] of Object.entries(internals.changedColumns)) {
                const value = changes[key as keyof ClientChanges];
                if (value !== undefined) {
                    row[column] = value;
                }
            }

            try {
                return await retriedOnLockConflict(() => knex.transaction(async (trx) => {

                    await touchAccountOfClient(trx, id);
                    const before = changes.keyDigest === undefined ? null : await trx('clients').select('key_digest').where({ id }).first() as Record<string, unknown> | undefined;
                    const count = await trx('clients').where({ id }).update(row);
                    const updated = Number(count) ? await trx('clients as c').select(internals.columns).where('c.id', id).first() : null;
                    if (updated && before && before.key_digest !== changes.keyDigest) {
                        await internals.tryNewKey(trx, id, at);
                    }

                    return updated ? { status: 'updated' as const, client: toClientRecord(updated) } : { status: 'absent' as const };
                }));
            }
            catch (err) {
                if (isForeignKeyViolation(err)) {
                    return { status: 'representative_gone' };
                }

                throw err;
            }
        },

        // Its lock on the client's row meets a sync's writes of the client (each raises the
        // client's data version first): the loser of a deadlock runs again, and then finds the
        // client gone or deletes it after the write.
        async delete(id) {

            try {
                return await retriedOnLockConflict(() => knex.transaction(async (trx) => {

                    await touchAccountOfClient(trx, id);
                    const lookup = trx('clients').select('id').where({ id });
                    if (dialectOf(knex) === 'mysql') {
                        lookup.forUpdate();
                    }

                    if (!await lookup.first()) {
                        return 'absent';
                    }

                    const represented = await trx('clients').where({ representative_id: id }).count({ count: '*' }).first();
                    if (countOf(represented) > 0) {
                        return 'represents';
                    }

                    for (const table of deleteCascade.flatMap((kept) => internals.cascadeTables[kept])) {
                        await trx(table).where({ client_id: id }).del();
                    }

                    await trx('clients').where({ id }).del();
                    return 'deleted' as const;
                }));
            }
            catch (err) {
                // A legal entity naming it as representative was created meanwhile.
                if (isForeignKeyViolation(err)) {
                    return 'represents';
                }

                throw err;
            }
        },

        async listSealedKeys(afterId, limit) {

            const rows = await knex('clients').select('id', 'clave_arca').where('id', '>', afterId).whereNotNull('clave_arca').orderBy('id').limit(limit);
            return rows.map((row: Record<string, unknown>) => ({ id: toNumber(row.id), sealedKey: String(row.clave_arca) }));
        },

        async replaceSealedKey(id, expected, next) {

            // The key's identity is its plaintext's, unchanged by sealing it anew.
            return Number(await knex('clients').where({ id, clave_arca: expected }).update({ clave_arca: next })) === 1;
        },

        async listUndigestedKeys(afterId, limit) {

            const rows = await knex('clients').select('id', 'cuit', 'clave_arca').where('id', '>', afterId).whereNotNull('clave_arca').whereNull('key_digest')
                .orderBy('id').limit(limit);
            return rows.map((row: Record<string, unknown>) => ({ id: toNumber(row.id), cuit: String(row.cuit) as Cuit, sealedKey: String(row.clave_arca) }));
        },

        async setKeyDigest(id, sealedKey, keyDigest) {

            return await knex.transaction(async (trx) => {

                if (Number(await trx('clients').where({ id, clave_arca: sealedKey }).whereNull('key_digest').update({ key_digest: keyDigest })) !== 1) {
                    return false;
                }

                // A refusal recorded before identities (by a digest of the sealed value) stays
                // the refusal of this key.
                await trx('sync_key_failures').where({ client_id: id, key_fingerprint: internals.sealedDigest(sealedKey) }).update({ key_fingerprint: keyDigest });
                return true;
            });
        },

        async findVisible(principal, cuit) {

            if (mysql && principal.role === 'owner') {
                return findInAccounts({ accountId: principal.accountId, cuit });
            }

            const visible = internals.visibleTo(principal);
            const row = await sql.first(visibleClientSql(visible.where), [...visible.bindings, cuit]);
            return row ? toClientRecord(row) : null;
        },

        async findInAccount(accountId, cuit) {

            const row = await knex('clients as c').select(internals.columns).where({ 'c.account_id': accountId, 'c.cuit': cuit }).first();
            return row ? toClientRecord(row) : null;
        },

        async findManyInAccount(principal, cuits) {

            const found: AccountClient[] = [];
            for (const part of internals.chunks(cuits, internals.importChunk)) {
                const query = knex('clients as c').select('c.id', 'c.cuit', 'c.tipo').where('c.account_id', principal.accountId).whereIn('c.cuit', [...part]);
                if (principal.role !== 'owner') {
                    query.select(knex.raw(`case when ${assignedToMember('?')} then 1 else 0 end as visible`, [principal.userId]));
                }

                for (const row of await query as Record<string, unknown>[]) {
                    found.push({ id: toNumber(row.id), cuit: String(row.cuit) as Cuit, tipo: row.tipo as ClientType, visible: principal.role === 'owner' || Number(row.visible) === 1 });
                }
            }

            return found;
        },

        async createMany(clients, options) {

            const created: ClientRecord[] = [];
            const skipped: { cuit: Cuit; reason: 'duplicate' | 'representative_gone' }[] = [];
            for (const part of internals.chunks(clients, internals.importChunk)) {
                const accountId = part[0]!.accountId;
                // Read again on each attempt: a creation of the same CUIT (unique index) or a
                // representative's deletion (foreign key) meanwhile makes the attempt fail, and
                // the next one leaves that client out.
                const outcome = await retriedOnLockConflict(() => knex.transaction(async (trx) => {

                    await touchAccount(trx, accountId);
                    const taken = new Set((await trx('clients').select('cuit').where('account_id', accountId).whereIn('cuit', part.map((client) => client.cuit)) as Record<string, unknown>[])
                        .map((row) => String(row.cuit)));
                    const representatives = [...new Set(part.map((client) => client.representativeId).filter((id): id is number => id !== null))];
                    const present = new Set(representatives.length
                        ? (await trx('clients').select('id').where('account_id', accountId).whereIn('id', representatives) as Record<string, unknown>[]).map((row) => toNumber(row.id))
                        : []);
                    const left: typeof skipped = [];
                    const rows = part.filter((client) => {

                        const reason = taken.has(client.cuit) ? 'duplicate' : client.representativeId !== null && !present.has(client.representativeId) ? 'representative_gone' : null;
                        if (reason) {
                            left.push({ cuit: client.cuit, reason });
                        }

                        return reason === null;
                    });
                    if (!rows.length) {
                        return { created: [], left };
                    }

                    await trx('clients').insert(rows.map(internals.toRow));
                    const stored = (await trx('clients as c').select(internals.columns).where('c.account_id', accountId).whereIn('c.cuit', rows.map((client) => client.cuit)) as Record<string, unknown>[])
                        .map((row) => toClientRecord(row));
                    await trx('sync_jobs').insert(stored.map((client) => pendingJobRow({ clientId: client.id, reason: 'first', runAfter: rows[0]!.createdAt, createdAt: rows[0]!.createdAt })));
                    if (options.managerUserId !== null) {
                        await trx('user_clients').insert(stored.map((client) => ({ user_id: options.managerUserId, client_id: client.id })));
                    }

                    return { created: stored, left };
                }), (err) => isLockConflict(err) || isUniqueViolation(err) || isForeignKeyViolation(err));

                created.push(...outcome.created);
                skipped.push(...outcome.left);
            }

            return { created, skipped };
        },

        async listVisible(principal, filters, page) {

            const visible = internals.visibleTo(principal);
            const conditions = clientConditions(filters);
            const where = [visible.where, ...conditions.where];
            const bindings = [...visible.bindings, ...conditions.bindings];
            // A page picked by id (the panel's) reads those rows by primary key, not the account's list index.
            const query = queries.clients(where.join(' and '), principal.role === 'owner' && !filters.ids);
            const [countRow, rows] = await Promise.all([
                sql.first(query.count, bindings),
                sql.all(query.page, [...bindings, page.limit, page.offset])
            ]);

            const ids = rows.map((row: Record<string, unknown>) => toNumber(row.id));
            const tags = new Map<number, string[]>();
            if (ids.length) {
                const tagRows = await sql.all(clientTagsSql(ids.length), ids);

                for (const row of tagRows) {
                    const list = tags.get(toNumber(row.client_id)) ?? [];
                    list.push(String(row.name));
                    tags.set(toNumber(row.client_id), list);
                }
            }

            // Object.assign, not a spread: V8's spread of this many fields is slow per row.
            const items: ClientListRow[] = rows.map((row: Record<string, unknown>) => Object.assign(toClientRecord(row), {
                etiquetas: tags.get(toNumber(row.id)) ?? [],
                registrySyncedAt: toNullableNumber(row.registry_synced_at)
            }));

            return { items, total: countOf(countRow) };
        }
    };
};
