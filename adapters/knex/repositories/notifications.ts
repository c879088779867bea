import type { Knex } from 'knex';
import type { Notification } from '../../../core/domain/notification.js';
import { toIso } from '../../../core/domain/time.js';
import type { NotificationRepository } from '../../../core/ports/index.js';
import type { ClientStores } from '../../../core/ports/unit-of-work.js';
import { clientDataTransaction, dialectOf } from '../connection.js';
import { touchClient } from '../data-versions.js';
import { listQueries } from '../fast/list-queries.js';
import { countOf, storableRow, textSizes, toNullableNumber, toNumber } from '../column-values.js';
import { statements } from '../fast/statements.js';
import { storedValue } from '../outbox.js';

const internals = {
    batchSize: 200,
    // What a resync may change of a stored notification.
    updated: ['tipo', 'asunto', 'organismo', 'fecha_recepcion', 'fecha_notificacion'],
    ms: (iso: string | null): number | null => (iso === null ? null : new Date(iso).getTime()),
    columns: ['arca_id', 'tipo', 'asunto', 'organismo', 'fecha_recepcion', 'fecha_notificacion', 'leida_at'],

    notification: (row: Record<string, unknown>): Notification => ({
        arcaId: row.arca_id as string | null,
        tipo: row.tipo as string | null,
        asunto: String(row.asunto),
        organismo: row.organismo as string | null,
        fechaRecepcion: new Date(toNumber(row.fecha_recepcion)).toISOString(),
        fechaNotificacion: toIso(toNullableNumber(row.fecha_notificacion)),
        leidaAt: toIso(toNullableNumber(row.leida_at))
    })
};

export const notificationRepository = (knex: Knex, sql = statements(knex), queries = listQueries(dialectOf(knex)).notifications): Omit<NotificationRepository, 'save'> => ({

    async list(clientId, page) {

        const [countRow, rows] = await Promise.all([
            sql.first(queries.count, [clientId]),
            sql.all(queries.page, [clientId, page.limit, page.offset])
        ]);

        return { items: rows.map(internals.notification), total: countOf(countRow) };
    },

    async find(clientId, arcaId) {

        const row = await knex('dfe_notifications').select(internals.columns).where({ client_id: clientId, arca_id: arcaId }).first();
        return row ? internals.notification(row) : null;
    },

    // Marked in the service, never at the authority: the row and the client's data version
    // change together (a resync keeps leida_at: see notificationStore).
    async setRead(clientId, arcaId, at) {

        return clientDataTransaction(knex, async (trx) => {

            await touchClient(trx, clientId);
            const where = { client_id: clientId, arca_id: arcaId };
            await trx('dfe_notifications').where(where).update({ leida_at: at === null ? null : trx.raw('coalesce(leida_at, ?)', [at]) });
            const row = await trx('dfe_notifications').select(internals.columns).where(where).first();
            return row ? internals.notification(row) : null;
        });
    }
});

// Upserted by the authority's id in a client's unit of work (core/ports/unit-of-work.ts);
// counted: the notifications not stored before, and those the authority now lists otherwise.
export const notificationStore = (trx: Knex.Transaction, clientId: number): ClientStores['notifications'] => ({

    async save(notifications, _syncedAt, count) {

        // As stored (texts cut at their columns), for the rows and the event alike.
        const stored = notifications.map((notification) => storableRow({ ...notification }, textSizes.dfe));
        const rows = stored.map((notification) => storableRow({
            client_id: clientId,
            arca_id: notification.arcaId,
            tipo: notification.tipo,
            asunto: notification.asunto,
            organismo: notification.organismo,
            fecha_recepcion: internals.ms(notification.fechaRecepcion),
            fecha_notificacion: internals.ms(notification.fechaNotificacion),
            leida_at: internals.ms(notification.leidaAt)
        }));

        await touchClient(trx, clientId);
        let saved = null;
        if (count) {
            const known = new Map<string, string>();
            const ids = notifications.map((notification) => notification.arcaId).filter((id): id is string => id !== null);
            for (let i = 0; i < ids.length; i += internals.batchSize) {
                const found = await trx('dfe_notifications').select(['arca_id', ...internals.updated]).where({ client_id: clientId }).whereIn(
                    'arca_id',
                    ids.slice(i, i + internals.batchSize)
                );
                found.forEach((row: Record<string, unknown>) => known.set(String(row.arca_id), storedValue(row, internals.updated)));
            }

            const fresh = stored.filter((notification) => notification.arcaId === null || !known.has(notification.arcaId));
            const changed = rows.filter(
                (row) => row.arca_id !== null && known.has(row.arca_id) && known.get(row.arca_id) !== storedValue(row, internals.updated)
            );
            saved = { changes: { nuevos: fresh.length, cambiados: changed.length, eliminados: 0 }, fresh };
        }

        // One statement per batch, not per notification (each a round trip inside the
        // client's transaction). leida_at belongs to the service once stored: a resync
        // never changes it.
        for (let i = 0; i < rows.length; i += internals.batchSize) {
            await trx('dfe_notifications').insert(rows.slice(i, i + internals.batchSize)).onConflict(['client_id', 'arca_id']).merge(internals.updated);
        }

        return saved;
    }
});
