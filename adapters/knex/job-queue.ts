import type { Knex } from 'knex';
import type { ClientType } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import type { SyncSystem } from '../../core/domain/sync-system.js';
import type { JobQueue, SyncJob, SyncReason, SyncTargetRepository } from '../../core/ports/job-queue.js';
import type { OnConnection } from './connection.js';
import { dialectOf, immediateTransaction } from './connection.js';
import { isLockConflict, isUniqueViolation } from './errors.js';
import { countOf, toNullableBoolean, toNullableNumber, toNumber } from './column-values.js';
import { pendingJobRow } from './pending-job.js';

// The job queue on sync_jobs (migrations 001 and 002). Claiming differs per database:
// - MySQL/MariaDB: in a transaction, a plain read lists candidates with their login key, then
//   each candidate's job row alone is locked (`FOR UPDATE SKIP LOCKED`, claimable still) and
//   the first that can be set running is taken. Never the join itself: SKIP LOCKED skips
//   every joined row another claimer locked, and a representative's row skipped in the LEFT
//   JOIN made its entity's key NULL, so the entity ran with no key held (docs/scaling.md).
// - SQLite: one `UPDATE … WHERE id = (SELECT …)`, atomic because SQLite serializes writers.
// On both, setting active_client_id (unique) is what guarantees one running job per client,
// and active_key (unique) one running job per login key.

interface ClaimQuery {
    clientIds: readonly number[] | undefined;
    now: number;
    owner: string;
}

const internals = {
    candidateLimit: 8,
    // Attempts of a claim or a transition that lost to another worker over locks.
    lockRetries: 5,

    toJob: (row: Record<string, unknown>): SyncJob => ({
        id: toNumber(row.id),
        clientId: toNumber(row.client_id),
        reason: row.reason as SyncReason,
        attempts: toNumber(row.attempts),
        createdAt: toNumber(row.created_at),
        keyId: row.key_id === null || row.key_id === undefined ? null : String(row.key_id)
    }),

    // The identity of the key that logs in for a job's client (migration 014): its own for a
    // person, its representative's for a legal entity (NULL without one), over `clients c LEFT
    // JOIN clients r`. Two accounts' keys for one CUIT are two keys here, unless they are the
    // same plaintext.
    keySql: "CASE WHEN c.tipo = 'persona-fisica' THEN c.key_digest ELSE r.key_digest END",

    // A job that may be claimed: due and pending, or running with its lease run out.
    claimable: (now: number, alias = '') => (where: Knex.QueryBuilder): void => {

        where.where((pending) => pending.where(`${alias}status`, 'pending').andWhere(`${alias}run_after`, '<=', now))
            .orWhere((expired) => expired.where(`${alias}status`, 'running').andWhere(`${alias}lease_expires_at`, '<', now));
    },

    // How long a claim counts against its account's turn (accountTurns).
    fairWindowMs: 15 * 60_000,

    // An account's turn: how many of its jobs were claimed in the last fairWindowMs, as an
    // ORDER BY term over `c` (0 for an account with none). Accounts with fewer go first, so
    // accounts take turns: one account's thousands of first syncs delay another account's new
    // CUIT by a job or two, not by thousands (issue 36). Read apart, before the claim, from
    // the index on started_at (migration 017: only the window's claims): as a join, the
    // grouped counts were recomputed for every candidate (5–10 times the claim's cost at
    // 50,000 due jobs).
    async accountTurns(knex: Knex, now: number): Promise<{ term: Knex.Raw } | null> {

        const rows = await knex('sync_jobs as s')
            .join('clients as sc', 'sc.id', 's.client_id')
            .where('s.started_at', '>=', now - internals.fairWindowMs)
            .groupBy('sc.account_id')
            .select('sc.account_id')
            .count({ claims: '*' }) as Record<string, unknown>[];
        if (!rows.length) {
            return null;
        }

        // Wrapped: a Raw is thenable, and an async function returning it would run it.
        return { term: knex.raw(`CASE c.account_id ${rows.map(() => 'WHEN ? THEN ?').join(' ')} ELSE 0 END`, rows.flatMap((row) => [toNumber(row.account_id), toNumber(row.claims)])) };
    },

    // Due pending jobs and running ones whose lease expired, of clients with no other job
    // running, and of keys with no other job running and held by no other worker.
    candidates(knex: Knex, query: ClaimQuery): Knex.QueryBuilder {

        const builder = knex('sync_jobs as j')
            .join('clients as c', 'c.id', 'j.client_id')
            .leftJoin('clients as r', 'r.id', 'c.representative_id')
            .where(internals.claimable(query.now, 'j.'))
            .whereNotExists(knex('sync_jobs as o').select(knex.raw('1')).whereRaw('o.active_client_id = j.client_id').andWhereRaw('o.id <> j.id'))
            .whereNotExists(knex('sync_jobs as k').select(knex.raw('1')).whereRaw(`k.active_key = ${internals.keySql}`).andWhereRaw('k.id <> j.id'))
            .whereNotExists(knex('sync_key_holds as h').select(knex.raw('1')).whereRaw(`h.key_id = ${internals.keySql}`).andWhere('h.owner', '<>', query.owner).andWhere('h.expires_at', '>=', query.now));

        if (query.clientIds) {
            builder.whereIn('j.client_id', query.clientIds.length ? [...query.clientIds] : [0]);
        }

        return builder;
    },

    // The jobs of keys this worker holds first (their session is open: the next entity of a
    // representative runs before the session idles out), then the accounts that claimed
    // least lately (`turns`, accountTurns), then by due time.
    claimOrder(knex: Knex, builder: Knex.QueryBuilder, owner: string, turns: { term: Knex.Raw } | null): Knex.QueryBuilder {

        builder
            .leftJoin('sync_key_holds as mine', (join) => join.on(knex.raw(`mine.key_id = ${internals.keySql}`)).andOn('mine.owner', '=', knex.raw('?', [owner])))
            .orderByRaw('CASE WHEN mine.key_id IS NULL THEN 1 ELSE 0 END');
        if (turns) {
            builder.orderByRaw(turns.term);
        }

        return builder.orderBy([{ column: 'j.run_after' }, { column: 'j.id' }]);
    },

    // The worker takes (or keeps) the hold of a key: free, expired or already its own. false
    // when another worker holds it.
    async takeHold(knex: Knex, keyId: string, owner: string, now: number, leaseMs: number): Promise<boolean> {

        const expires = now + leaseMs;
        if (dialectOf(knex) === 'mysql') {
            await knex.raw(`INSERT INTO sync_key_holds (key_id, owner, expires_at) VALUES (?, ?, ?)
                ON DUPLICATE KEY UPDATE owner = IF(owner = VALUES(owner) OR expires_at < ?, VALUES(owner), owner),
                expires_at = IF(owner = VALUES(owner), VALUES(expires_at), expires_at)`, [keyId, owner, expires, now]);
        }
        else {
            await knex.raw(`INSERT INTO sync_key_holds (key_id, owner, expires_at) VALUES (?, ?, ?)
                ON CONFLICT (key_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
                WHERE sync_key_holds.owner = excluded.owner OR sync_key_holds.expires_at < ?`, [keyId, owner, expires, now]);
        }

        // Locking on MySQL: inside the claim's transaction a plain read sees its REPEATABLE
        // READ snapshot, which may still show this worker's expired hold that another took.
        const read = knex('sync_key_holds').select('owner').where({ key_id: keyId }).first();
        const row = await (dialectOf(knex) === 'mysql' ? read.forUpdate() : read);
        return row?.owner === owner;
    },

    // `write` again when it lost to another worker over locks (`retryable`), up to
    // lockRetries times in all: InnoDB ends one of two transactions that lock the same index
    // entries as a deadlock (or a lock wait runs out), and the loser must run again.
    async retried<T>(write: () => Promise<T>, retryable: (err: unknown) => boolean = isLockConflict): Promise<T> {

        for (let attempt = 1; ; ++attempt) {
            try {
                return await write();
            }
            catch (err) {
                if (attempt >= internals.lockRetries || !retryable(err)) {
                    throw err;
                }
            }
        }
    },

    // A transition of a job this owner holds; false when the lease was lost meanwhile. One that
    // gave up to another worker's claim would leave its job running, claimed by nobody, until
    // its lease ran out minutes later.
    transition(knex: Knex, job: SyncJob, owner: string, changes: Record<string, unknown>): Promise<boolean> {

        return internals.retried(
            async () => Number(await knex('sync_jobs').where({ id: job.id, lease_owner: owner, status: 'running' }).update(changes)) === 1
        );
    },

    released: { active_client_id: null, active_key: null, lease_owner: null, lease_expires_at: null }
};

export const jobQueue = (knex: Knex): JobQueue => {

    const dialect = dialectOf(knex);

    const claimMysql = async (options: Parameters<JobQueue['claim']>[0]): Promise<SyncJob | null> => {

        return await knex.transaction(async (trx) => {

            const rows = await internals.claimOrder(trx, internals.candidates(trx, {
                clientIds: options.clientIds,
                now: options.now,
                owner: options.owner
            }), options.owner, await internals.accountTurns(trx, options.now))
                .select('j.id', 'j.client_id', 'j.reason', 'j.attempts', 'j.created_at', trx.raw(`${internals.keySql} AS key_id`))
                .limit(internals.candidateLimit);

            for (const row of rows) {
                // A savepoint per candidate: the key's hold is taken only with its job.
                const claimed = await trx.transaction(async (candidate) => {

                    // The job's row, as it is now (a locking read), skipped while another
                    // claimer holds it; gone from the candidates once another claimed it.
                    const locked = await candidate('sync_jobs')
                        .select('id')
                        .where({ id: row.id })
                        .andWhere(internals.claimable(options.now))
                        .forUpdate()
                        .skipLocked()
                        .first();
                    if (!locked) {
                        return false;
                    }

                    if (row.key_id !== null && !await internals.takeHold(candidate, String(row.key_id), options.owner, options.now, options.leaseMs)) {
                        return false;
                    }

                    await candidate('sync_jobs').where({ id: row.id }).update({
                        status: 'running',
                        active_client_id: row.client_id,
                        active_key: row.key_id,
                        lease_owner: options.owner,
                        lease_expires_at: options.now + options.leaseMs,
                        started_at: options.now,
                        attempts: candidate.raw('attempts + 1')
                    });
                    return true;
                }).catch((err: unknown) => {

                    // Another claimer set a job of this client or key running first.
                    if (isUniqueViolation(err)) {
                        return false;
                    }

                    throw err;
                });

                if (claimed) {
                    return internals.toJob({ ...row, attempts: toNumber(row.attempts) + 1 });
                }
            }

            return null;
        });
    };

    const claimSqlite = async (options: Parameters<JobQueue['claim']>[0]): Promise<SyncJob | null> => {

        const pick = internals.claimOrder(knex, internals.candidates(knex, {
            clientIds: options.clientIds,
            now: options.now,
            owner: options.owner
        }), options.owner, await internals.accountTurns(knex, options.now))
            .select('j.id')
            .limit(1);

        // One statement, atomic because SQLite serializes writers.
        const rows = await knex('sync_jobs')
            .where('id', pick)
            .update({
                status: 'running',
                active_client_id: knex.ref('client_id'),
                active_key: knex.raw(`(SELECT ${internals.keySql} FROM clients c LEFT JOIN clients r ON r.id = c.representative_id WHERE c.id = sync_jobs.client_id)`),
                lease_owner: options.owner,
                lease_expires_at: options.now + options.leaseMs,
                started_at: options.now,
                attempts: knex.raw('attempts + 1')
            }, ['id', 'client_id', 'reason', 'attempts', 'created_at', 'active_key as key_id']);

        if (!rows.length) {
            return null;
        }

        const job = internals.toJob(rows[0] as Record<string, unknown>);
        // The claim saw the key held by nobody else, and no other job of it can run now (the
        // unique active_key): the hold is this worker's unless a hold appeared in between.
        if (job.keyId !== null && !await internals.takeHold(knex, job.keyId, options.owner, options.now, options.leaseMs)) {
            await internals.transition(knex, job, options.owner, { ...internals.released, status: 'pending', attempts: knex.raw('attempts - 1') });
            return null;
        }

        return job;
    };

    return {

        async enqueue(clientId, reason, now) {

            // A read then a write: on MySQL the pending row is locked as it is read, on SQLite
            // the write lock is taken first (immediateTransaction).
            const enqueue = async (on: OnConnection): Promise<number> => {

                const query = knex('sync_jobs').select('id', 'reason', 'run_after').where({ client_id: clientId, status: 'pending' }).orderBy('id').first();
                const existing = await on(dialect === 'mysql' ? query.forUpdate() : query);
                if (!existing) {
                    const [id] = await on(knex('sync_jobs').insert(pendingJobRow({ clientId, reason, runAfter: now, createdAt: now })));
                    return Number(id);
                }

                if (reason === 'forced' && existing.reason !== 'forced') {
                    await on(knex('sync_jobs').where({ id: existing.id }).update({ reason, run_after: Math.min(toNumber(existing.run_after), now) }));
                }
                // Staff's sync makes a job waiting out its retry's backoff due now.
                else if (reason === 'manual' && toNumber(existing.run_after) > now) {
                    await on(knex('sync_jobs').where({ id: existing.id }).update({ run_after: now }));
                }

                return toNumber(existing.id);
            };

            return dialect === 'mysql' ? await knex.transaction((trx) => enqueue((query) => query.transacting(trx) as typeof query)) : await immediateTransaction(knex, enqueue);
        },

        async enqueueDaily({ dayStart, now, plan }) {

            const insert = async (on: OnConnection): Promise<number> => {

                // Clients with nothing pending or running and no job of the day, with their key.
                const rows = await on(knex('clients as c')
                    .leftJoin('clients as r', 'r.id', 'c.representative_id')
                    .select('c.id as client_id', 'c.account_id', knex.raw(`${internals.keySql} as key_id`))
                    .whereNotExists(knex('sync_jobs as j').select(knex.raw('1')).whereRaw('j.client_id = c.id').andWhere((job) => job
                        .whereIn('j.status', ['pending', 'running'])
                        .orWhere('j.created_at', '>=', dayStart)
                        .orWhere('j.run_after', '>=', dayStart)))) as Record<string, unknown>[];
                const due = rows.map((row) => ({
                    clientId: toNumber(row.client_id),
                    accountId: toNumber(row.account_id),
                    keyId: row.key_id === null ? null : String(row.key_id)
                }));
                const planned = plan(due);
                for (let i = 0; i < planned.length; i += 500) {
                    await on(knex('sync_jobs').insert(planned.slice(i, i + 500).map((job) => pendingJobRow({
                        clientId: job.clientId,
                        reason: 'daily',
                        runAfter: job.runAfter,
                        createdAt: now
                    }))));
                }

                return planned.length;
            };

            if (dialect === 'sqlite') {
                // One transaction holding the write lock from its start: another process's
                // scheduler waits for it, then sees its jobs.
                return await immediateTransaction(knex, insert);
            }

            // Every worker schedules; on MySQL a named lock lets one at a time do it, held on
            // one connection around the (autocommitted) read and inserts, so two schedulers
            // cannot both see a client as due and enqueue it twice.
            const connection = await knex.client.acquireConnection();
            try {
                const [[lock]] = await knex.raw(
                    "SELECT GET_LOCK('arcasync_sync_schedule', 5) AS acquired"
                ).connection(connection) as [[{ acquired: number | null }]];
                if (Number(lock.acquired) !== 1) {
                    return 0;
                }

                try {
                    return await insert((query) => query.connection(connection) as typeof query);
                }
                finally {
                    await knex.raw("SELECT RELEASE_LOCK('arcasync_sync_schedule')").connection(connection);
                }
            }
            finally {
                await knex.client.releaseConnection(connection);
            }
        },

        claim(options) {

            // Two workers may also race to the same client's one running slot (a unique index).
            return internals.retried(
                () => (dialect === 'mysql' ? claimMysql(options) : claimSqlite(options)),
                (err) => isLockConflict(err) || isUniqueViolation(err)
            );
        },

        renew(job, owner, now, leaseMs) {

            return internals.transition(knex, job, owner, { lease_expires_at: now + leaseMs });
        },

        complete(job, owner, now) {

            return internals.transition(knex, job, owner, { ...internals.released, status: 'done', finished_at: now, last_error: null });
        },

        retry(job, owner, error, runAfter) {

            return internals.transition(knex, job, owner, { ...internals.released, status: 'pending', run_after: runAfter, last_error: error });
        },

        fail(job, owner, error, now) {

            return internals.transition(knex, job, owner, { ...internals.released, status: 'failed', finished_at: now, last_error: error });
        },

        release(job, owner, now) {

            return internals.transition(knex, job, owner, { ...internals.released, status: 'pending', run_after: now, attempts: knex.raw('attempts - 1') });
        },

        async keyHasDue(keyId, now) {

            const row = await knex('sync_jobs as j')
                .join('clients as c', 'c.id', 'j.client_id')
                .leftJoin('clients as r', 'r.id', 'c.representative_id')
                .where('j.status', 'pending').andWhere('j.run_after', '<=', now)
                .andWhereRaw(`${internals.keySql} = ?`, [keyId])
                .first(knex.raw('1 AS due'));
            return Boolean(row);
        },

        async renewKeyHolds(owner, now, leaseMs) {

            return Number(await knex('sync_key_holds').where({ owner }).andWhere('expires_at', '>=', now).update({ expires_at: now + leaseMs }));
        },

        async releaseKeyHold(keyId, owner) {

            await knex('sync_key_holds').where({ key_id: keyId, owner }).del();
        },

        async prune(finishedBefore) {

            return Number(await knex('sync_jobs').whereIn('status', ['done', 'failed']).where('finished_at', '<', finishedBefore).del());
        },

        async counts(clientIds, now) {

            const query = knex('sync_jobs')
                .select('status')
                .count({ count: '*' })
                .select(knex.raw('SUM(CASE WHEN run_after <= ? THEN 1 ELSE 0 END) AS due', [now]))
                .whereIn('status', ['pending', 'running'])
                .groupBy('status');
            if (clientIds) {
                query.whereIn('client_id', clientIds.length ? [...clientIds] : [0]);
            }

            const rows = await query;
            const counts = { pending: 0, due: 0, running: 0 };
            for (const row of rows as Record<string, unknown>[]) {
                if (row.status === 'pending') {
                    counts.pending = toNumber(row.count);
                    counts.due = toNumber(row.due);
                }
                else {
                    counts.running = toNumber(row.count);
                }
            }

            return counts;
        }
    };
};

export const syncTargetRepository = (knex: Knex): SyncTargetRepository => ({

    async find(clientId) {

        const client = await knex('clients').select('id', 'account_id', 'cuit', 'tipo', 'representative_id', 'clave_arca', 'monotributista').where({ id: clientId }).first();
        if (!client) {
            return null;
        }

        // A legal entity logs in with its representative's key.
        const representativeId = toNullableNumber(client.representative_id);
        const login = client.tipo === 'persona-fisica'
            ? client
            : representativeId === null ? null : await knex('clients').select('id', 'cuit', 'clave_arca').where({ id: representativeId }).first();

        const failure = login ? await knex('sync_key_failures').where({ client_id: login.id }).first() : null;
        return {
            id: toNumber(client.id),
            accountId: toNumber(client.account_id),
            cuit: String(client.cuit) as Cuit,
            tipo: client.tipo as ClientType,
            loginClientId: login ? toNumber(login.id) : null,
            loginCuit: login ? String(login.cuit) as Cuit : null,
            sealedKey: login ? (login.clave_arca as string | null) : null,
            keyFailure: failure ? { fingerprint: String(failure.key_fingerprint), kind: String(failure.kind), at: toNumber(failure.failed_at) } : null,
            monotributista: toNullableBoolean(client.monotributista) === true
        };
    },

    async findByCuit(cuit) {

        const rows = await knex('clients').select('id', 'account_id').where({ cuit }).orderBy('id');
        return rows.map((row: Record<string, unknown>) => ({ id: toNumber(row.id), accountId: toNumber(row.account_id) }));
    },

    async listIds() {

        const rows = await knex('clients').select('id').orderBy('id');
        return rows.map((row: Record<string, unknown>) => toNumber(row.id));
    },

    async summary() {

        const [clients, rows] = await Promise.all([
            knex('clients').count({ count: '*' }).first(),
            knex('sync_states')
                .select('system')
                .select(knex.raw('SUM(CASE WHEN synced_at IS NULL THEN 0 ELSE 1 END) AS synced'))
                .select(knex.raw('SUM(CASE WHEN last_error IS NULL THEN 0 ELSE 1 END) AS failing'))
                .min({ oldest: 'synced_at' })
                .groupBy('system')
                .orderBy('system')
        ]);

        return {
            clients: countOf(clients),
            systems: (rows as Record<string, unknown>[]).map((row) => ({
                system: row.system as SyncSystem,
                synced: toNumber(row.synced),
                failing: toNumber(row.failing),
                oldestSyncedAt: toNullableNumber(row.oldest)
            }))
        };
    },

    async recordKeyFailure(loginClientId, fingerprint, kind, at) {

        const exists = await knex('clients').select('id').where({ id: loginClientId }).first();
        if (!exists) {
            return;
        }

        await knex('sync_key_failures')
            .insert({ client_id: loginClientId, key_fingerprint: fingerprint, kind, failed_at: at })
            .onConflict('client_id')
            .merge(['key_fingerprint', 'kind', 'failed_at']);
    }
});
