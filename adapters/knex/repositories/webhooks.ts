import type { Knex } from 'knex';
import type { SyncSystem } from '../../../core/domain/sync-system.js';
import { wantsEvent } from '../../../core/domain/webhook.js';
import type { ClaimedDelivery, OutboxEventRecord, WebhookEndpoint, WebhookRepository } from '../../../core/ports/index.js';
import { toNullableNumber, toNumber } from '../column-values.js';
import { newEventId } from '../outbox.js';

// Webhook endpoints, the outbox and its deliveries (migration 011). Deliveries are taken under
// a lease like sync jobs: a compare-and-set on the row, so two workers never call an endpoint
// with the same delivery at once, and a killed worker's delivery is taken again once its lease
// ends (at least once; receivers drop repeats by the event's id).

const internals = {
    endpoint: (row: Record<string, unknown>): WebhookEndpoint & { sealedSecret: string } => ({
        id: toNumber(row.id),
        accountId: toNumber(row.account_id),
        url: String(row.url),
        events: String(row.events),
        createdAt: toNumber(row.created_at),
        disabledAt: toNullableNumber(row.disabled_at),
        consecutiveFailures: toNumber(row.consecutive_failures ?? 0),
        openUntil: toNullableNumber(row.open_until),
        sealedSecret: String(row.sealed_secret)
    }),

    event: (row: Record<string, unknown>): OutboxEventRecord => ({
        id: toNumber(row.id),
        publicId: String(row.public_id),
        accountId: toNumber(row.account_id),
        clientId: toNullableNumber(row.client_id),
        cuit: row.cuit === null ? null : String(row.cuit),
        type: String(row.type),
        system: (row.sync_system ?? null) as SyncSystem | null,
        previousError: (row.previous_error ?? null) as string | null,
        error: (row.error ?? null) as string | null,
        data: row.data === null || row.data === undefined ? null : JSON.parse(String(row.data)),
        createdAt: toNumber(row.created_at)
    }),

    // What a delivery's last error may say: short, one line.
    short: (text: string): string => text.replace(/\s+/g, ' ').slice(0, 500)
};

export const webhookRepository = (knex: Knex): WebhookRepository => ({

    async createEndpoint(input) {

        const [id] = await knex('webhook_endpoints').insert({
            account_id: input.accountId,
            url: input.url,
            events: input.events,
            sealed_secret: input.sealedSecret,
            created_at: input.createdAt
        });
        return toNumber(id);
    },

    async listEndpoints(accountId) {

        const query = knex('webhook_endpoints').orderBy('id');
        if (accountId !== undefined) {
            query.where({ account_id: accountId });
        }

        return (await query).map((row: Record<string, unknown>) => {

            const { sealedSecret: _sealed, ...endpoint } = internals.endpoint(row);
            return endpoint;
        });
    },

    async findEndpoint(id) {

        const row = await knex('webhook_endpoints').where({ id }).first();
        return row ? internals.endpoint(row) : null;
    },

    async disableEndpoint(id, at) {

        const changed = await knex('webhook_endpoints').where({ id }).update({ disabled_at: knex.raw('coalesce(disabled_at, ?)', [at]) });
        return changed > 0;
    },

    async replaceSecret(id, sealedSecret) {

        return await knex('webhook_endpoints').where({ id }).update({ sealed_secret: sealedSecret }) > 0;
    },

    async listSealedSecrets(afterId, limit) {

        const rows = await knex('webhook_endpoints').select('id', 'sealed_secret').where('id', '>', afterId).orderBy('id').limit(limit);
        return rows.map((row: Record<string, unknown>) => ({ id: toNumber(row.id), sealedKey: String(row.sealed_secret) }));
    },

    async replaceSealedSecret(id, expected, next) {

        return await knex('webhook_endpoints').where({ id, sealed_secret: expected }).update({ sealed_secret: next }) === 1;
    },

    async enqueueTest(endpointId, at) {

        return await knex.transaction(async (trx) => {

            const endpoint = await trx('webhook_endpoints').where({ id: endpointId }).first();
            const publicId = newEventId();
            const [eventId] = await trx('webhook_events').insert({
                public_id: publicId,
                account_id: endpoint.account_id,
                client_id: null,
                cuit: null,
                type: 'prueba',
                data: JSON.stringify({ mensaje: 'Evento de prueba de arcasync.' }),
                created_at: at,
                fanned_out: true
            });
            await trx('webhook_deliveries').insert({
                event_id: eventId,
                endpoint_id: endpointId,
                status: 'pending',
                attempts: 0,
                next_attempt_at: at,
                created_at: at
            });
            return publicId;
        });
    },

    // Workers may fan out the same events at once: the unique (event, endpoint) index keeps
    // one delivery each, whoever writes it.
    async fanOut(limit) {

        const events = await knex('webhook_events').select('id', 'account_id', 'type', 'created_at').where({ fanned_out: false }).orderBy('id').limit(limit);
        if (!events.length) {
            return 0;
        }

        const accounts = [...new Set(events.map((row: Record<string, unknown>) => toNumber(row.account_id)))];
        const endpoints = await knex('webhook_endpoints').select('id', 'account_id', 'events').whereIn('account_id', accounts).whereNull('disabled_at');
        const rows: Record<string, unknown>[] = [];
        for (const event of events as Record<string, unknown>[]) {
            for (const endpoint of endpoints as Record<string, unknown>[]) {
                if (toNumber(endpoint.account_id) === toNumber(event.account_id) && wantsEvent(String(endpoint.events), String(event.type))) {
                    rows.push({
                        event_id: event.id,
                        endpoint_id: endpoint.id,
                        status: 'pending',
                        attempts: 0,
                        next_attempt_at: toNumber(event.created_at),
                        created_at: toNumber(event.created_at)
                    });
                }
            }
        }

        await knex.transaction(async (trx) => {

            for (let i = 0; i < rows.length; i += 200) {
                await trx('webhook_deliveries').insert(rows.slice(i, i + 200)).onConflict(['event_id', 'endpoint_id']).ignore();
            }

            await trx('webhook_events').whereIn('id', events.map((row: Record<string, unknown>) => row.id as number)).update({ fanned_out: true });
        });

        return events.length;
    },

    // One due delivery per endpoint (its oldest), so an endpoint with a backlog or a slow
    // receiver takes one slot and never holds the others up; endpoints in turn (the one taken
    // longest ago first), those without failures before the others, none set aside by its
    // breaker. Taking one marks its endpoint taken; a breaker past its pause is pushed to the
    // lease's end, so that one worker probes it, not the whole fleet at once.
    async claim({ owner, now, leaseMs, limit, busyEndpoints, endpointIds, maxFailing, probe }) {

        const candidates = knex('webhook_deliveries as d')
            .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
            .select('d.endpoint_id', 'w.consecutive_failures', 'w.last_claimed_at')
            .min({ id: 'd.id' })
            .where('d.status', 'pending')
            .where('d.next_attempt_at', '<=', now)
            .where((query) => query.whereNull('d.lease_expires_at').orWhere('d.lease_expires_at', '<=', now))
            .groupBy('d.endpoint_id', 'w.consecutive_failures', 'w.last_claimed_at')
            .orderByRaw('case when w.consecutive_failures > 0 then 1 else 0 end, coalesce(w.last_claimed_at, 0), d.endpoint_id')
            .limit(limit);
        if (!probe) {
            candidates.where((query) => query.whereNull('w.open_until').orWhere('w.open_until', '<=', now));
        }

        if (busyEndpoints.length) {
            candidates.whereNotIn('d.endpoint_id', busyEndpoints);
        }

        if (endpointIds) {
            candidates.whereIn('d.endpoint_id', endpointIds);
        }

        const claimed: ClaimedDelivery[] = [];
        let failing = 0;
        for (const candidate of await candidates as Record<string, unknown>[]) {
            const id = toNumber(candidate.id);
            if (toNumber(candidate.consecutive_failures) > 0) {
                if (maxFailing !== undefined && failing >= maxFailing) {
                    continue;
                }

                failing++;
            }

            const taken = await knex('webhook_deliveries')
                .where({ id, status: 'pending' })
                .where((query) => query.whereNull('lease_expires_at').orWhere('lease_expires_at', '<=', now))
                .update({ lease_owner: owner, lease_expires_at: now + leaseMs });
            if (!taken) {
                continue;
            }

            await knex('webhook_endpoints').where({ id: toNumber(candidate.endpoint_id) }).update({
                last_claimed_at: now,
                open_until: knex.raw('case when open_until is null then null else ? end', [now + leaseMs])
            });

            const row = await knex('webhook_deliveries as d')
                .join('webhook_events as e', 'e.id', 'd.event_id')
                .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
                .select(
                    'd.id as delivery_id',
                    'd.attempts',
                    'e.*',
                    'w.id as w_id',
                    'w.account_id as w_account_id',
                    'w.url as w_url',
                    'w.events as w_events',
                    'w.created_at as w_created_at',
                    'w.disabled_at as w_disabled_at',
                    'w.consecutive_failures as w_consecutive_failures',
                    'w.open_until as w_open_until',
                    'w.sealed_secret as w_sealed_secret'
                )
                .where('d.id', id)
                .first() as Record<string, unknown> | undefined;
            if (row) {
                claimed.push({
                    id,
                    attempts: toNumber(row.attempts),
                    event: internals.event(row),
                    endpoint: internals.endpoint({
                        id: row.w_id,
                        account_id: row.w_account_id,
                        url: row.w_url,
                        events: row.w_events,
                        created_at: row.w_created_at,
                        disabled_at: row.w_disabled_at,
                        consecutive_failures: row.w_consecutive_failures,
                        open_until: row.w_open_until,
                        sealed_secret: row.w_sealed_secret
                    })
                });
            }
        }

        return claimed;
    },

    async record(deliveryId, owner, at, outcome) {

        const changed = await knex('webhook_deliveries')
            .where({ id: deliveryId, lease_owner: owner, status: 'pending' })
            .update({
                status: outcome.status,
                attempts: knex.raw('attempts + 1'),
                last_attempt_at: at,
                last_status: outcome.httpStatus,
                last_error: outcome.status === 'delivered' ? null : internals.short(outcome.error),
                delivered_at: outcome.status === 'delivered' ? at : null,
                next_attempt_at: outcome.status === 'pending' ? outcome.nextAttemptAt : at,
                lease_owner: null,
                lease_expires_at: null
            });
        return changed > 0;
    },

    async listDeliveries({ endpointId, accountId, limit }) {

        const query = knex('webhook_deliveries as d')
            .join('webhook_events as e', 'e.id', 'd.event_id')
            .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
            .select('d.*', 'e.public_id', 'e.type', 'e.cuit', 'w.url')
            .orderBy('d.id', 'desc')
            .limit(limit);
        if (endpointId !== undefined) {
            query.where('d.endpoint_id', endpointId);
        }

        if (accountId !== undefined) {
            query.where('w.account_id', accountId);
        }

        return (await query).map((row: Record<string, unknown>) => ({
            id: toNumber(row.id),
            eventId: String(row.public_id),
            type: String(row.type),
            endpointId: toNumber(row.endpoint_id),
            url: String(row.url),
            cuit: row.cuit === null ? null : String(row.cuit),
            status: row.status as 'pending' | 'delivered' | 'failed',
            attempts: toNumber(row.attempts),
            lastStatus: toNullableNumber(row.last_status),
            lastError: (row.last_error ?? null) as string | null,
            lastAttemptAt: toNullableNumber(row.last_attempt_at),
            nextAttemptAt: row.status === 'pending' ? toNullableNumber(row.next_attempt_at) : null,
            deliveredAt: toNullableNumber(row.delivered_at),
            createdAt: toNumber(row.created_at)
        }));
    },

    async noteCall(endpointId, ok) {

        if (ok) {
            await knex('webhook_endpoints').where({ id: endpointId }).update({ consecutive_failures: 0, open_until: null });
            return 0;
        }

        await knex('webhook_endpoints').where({ id: endpointId }).increment('consecutive_failures', 1);
        const row = await knex('webhook_endpoints').select('consecutive_failures').where({ id: endpointId }).first() as Record<string, unknown> | undefined;
        return row ? toNumber(row.consecutive_failures) : 0;
    },

    async pauseEndpoint(endpointId, until) {

        await knex('webhook_endpoints').where({ id: endpointId }).update({ open_until: until });
    },

    // Ids first, then writes by id: MySQL refuses a delete reading its own table in a subquery,
    // and SQLite has no limit on update or delete.
    async prune({ before, expireBefore, at, reason, limit }) {

        const stale = await knex('webhook_deliveries').select('id').where('status', 'pending').where('created_at', '<', expireBefore)
            .where((query) => query.whereNull('lease_expires_at').orWhere('lease_expires_at', '<=', at))
            .orderBy('id').limit(limit) as Record<string, unknown>[];
        const expired = stale.length
            ? await knex('webhook_deliveries').whereIn('id', stale.map((row) => toNumber(row.id))).where('status', 'pending')
                .update({ status: 'failed', last_error: internals.short(reason), next_attempt_at: at, lease_owner: null, lease_expires_at: null })
            : 0;

        const rows = await knex('webhook_events as e').select('e.id')
            .where('e.created_at', '<', before)
            .where('e.fanned_out', true)
            .whereNotExists(knex('webhook_deliveries as d').select(knex.raw('1')).whereRaw('d.event_id = e.id').where('d.status', 'pending'))
            .whereNot((query) => query.where('e.type', 'salud.cambio').whereNull('e.sync_system').whereNotExists(
                knex('webhook_events as l').select(knex.raw('1')).whereRaw('l.client_id = e.client_id').where('l.type', 'salud.cambio')
                    .whereNull('l.sync_system').whereRaw('l.id > e.id')
            ))
            .orderBy('e.id').limit(limit) as Record<string, unknown>[];
        if (!rows.length) {
            return { expired, events: 0, deliveries: 0 };
        }

        const ids = rows.map((row) => toNumber(row.id));
        return await knex.transaction(async (trx) => {

            const deliveries = await trx('webhook_deliveries').whereIn('event_id', ids).delete();
            const events = await trx('webhook_events').whereIn('id', ids).delete();
            return { expired, events, deliveries };
        });
    },

    async waiting(before, now) {

        const untried = await knex('webhook_deliveries as d').join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
            .where('d.status', 'pending').where('d.attempts', 0).where('d.created_at', '<', before)
            .where((query) => query.whereNull('w.open_until').orWhere('w.open_until', '<=', now))
            .select(knex.raw('count(distinct d.event_id) as events'), knex.raw('min(d.created_at) as oldest'))
            .first() as Record<string, unknown> | undefined;
        const unfanned = await knex('webhook_events').where('fanned_out', false).where('created_at', '<', before)
            .select(knex.raw('count(*) as events'), knex.raw('min(created_at) as oldest'))
            .first() as Record<string, unknown> | undefined;
        const oldest = [untried?.oldest, unfanned?.oldest].map(toNullableNumber).filter((at): at is number => at !== null);
        return {
            events: toNumber(untried?.events ?? 0) + toNumber(unfanned?.events ?? 0),
            oldestAt: oldest.length ? Math.min(...oldest) : null
        };
    }
});
