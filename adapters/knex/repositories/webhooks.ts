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
    // receiver takes one slot and never holds the others up.
    async claim({ owner, now, leaseMs, limit, busyEndpoints, endpointIds }) {

        const candidates = knex('webhook_deliveries as d')
            .select('d.endpoint_id')
            .min({ id: 'd.id' })
            .where('d.status', 'pending')
            .where('d.next_attempt_at', '<=', now)
            .where((query) => query.whereNull('d.lease_expires_at').orWhere('d.lease_expires_at', '<=', now))
            .groupBy('d.endpoint_id')
            .limit(limit);
        if (busyEndpoints.length) {
            candidates.whereNotIn('d.endpoint_id', busyEndpoints);
        }

        if (endpointIds) {
            candidates.whereIn('d.endpoint_id', endpointIds);
        }

        const claimed: ClaimedDelivery[] = [];
        for (const candidate of await candidates as Record<string, unknown>[]) {
            const id = toNumber(candidate.id);
            const taken = await knex('webhook_deliveries')
                .where({ id, status: 'pending' })
                .where((query) => query.whereNull('lease_expires_at').orWhere('lease_expires_at', '<=', now))
                .update({ lease_owner: owner, lease_expires_at: now + leaseMs });
            if (!taken) {
                continue;
            }

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
    }
});
