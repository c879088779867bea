import type { Knex } from 'knex';
import { toIso } from '../../../core/domain/time.js';
import type { NotificationRepository } from '../../../core/ports/index.js';
import { clientDataTransaction, dialectOf } from '../connection.js';
import { touchClient } from '../data-versions.js';
import { listQueries } from '../list-queries.js';
import { countOf, storableRow, textSizes, toNullableNumber, toNumber } from '../column-values.js';
import { statements } from '../statements.js';
import { markSynced } from './sync-states.js';
import { announce, isListened } from '../outbox.js';
import { notificationMetadata } from '../../../core/domain/events.js';

const internals = {
    batchSize: 200,
    ms: (iso: string | null): number | null => (iso === null ? null : new Date(iso).getTime())
};

export const notificationRepository = (knex: Knex, sql = statements(knex), queries = listQueries(dialectOf(knex)).notifications): NotificationRepository => ({

    async list(clientId, page) {

        const [countRow, rows] = await Promise.all([
            sql.first(queries.count, [clientId]),
            sql.all(queries.page, [clientId, page.limit, page.offset])
        ]);

        return {
            items: rows.map((row: Record<string, unknown>) => ({
                arcaId: row.arca_id as string | null,
                tipo: row.tipo as string | null,
                asunto: String(row.asunto),
                organismo: row.organismo as string | null,
                fechaRecepcion: new Date(toNumber(row.fecha_recepcion)).toISOString(),
                fechaNotificacion: toIso(toNullableNumber(row.fecha_notificacion)),
                leidaAt: toIso(toNullableNumber(row.leida_at))
            })),
            total: countOf(countRow)
        };
    },

    async save(clientId, notifications, syncedAt) {

        await clientDataTransaction(knex, async (trx) => {

            await touchClient(trx, clientId);
            // The notifications not stored before, for the account's webhooks (only when they listen).
            if (notifications.length && await isListened(trx, clientId)) {
                const known = new Set<string>();
                const ids = notifications.map((notification) => notification.arcaId).filter((id): id is string => id !== null);
                for (let i = 0; i < ids.length; i += internals.batchSize) {
                    const rows = await trx('dfe_notifications').select('arca_id').where({ client_id: clientId }).whereIn(
                        'arca_id',
                        ids.slice(i, i + internals.batchSize)
                    );
                    rows.forEach((row: Record<string, unknown>) => known.add(String(row.arca_id)));
                }

                const fresh = notifications.filter((notification) => notification.arcaId === null || !known.has(notification.arcaId));
                if (fresh.length) {
                    await announce(trx, clientId, {
                        type: 'dfe.nuevas',
                        system: 'dfe',
                        data: { cantidad: fresh.length, notificaciones: fresh.map(notificationMetadata) }
                    }, syncedAt);
                }
            }

            const rows = notifications.map((notification) => storableRow({
                client_id: clientId,
                arca_id: notification.arcaId,
                tipo: notification.tipo,
                asunto: notification.asunto,
                organismo: notification.organismo,
                fecha_recepcion: internals.ms(notification.fechaRecepcion),
                fecha_notificacion: internals.ms(notification.fechaNotificacion),
                leida_at: internals.ms(notification.leidaAt)
            }, textSizes.dfe));

            // One statement per batch, not per notification (each a round trip inside the
            // client's transaction). leida_at belongs to the service once stored: a resync
            // never changes it.
            for (let i = 0; i < rows.length; i += internals.batchSize) {
                await trx('dfe_notifications').insert(rows.slice(i, i + internals.batchSize)).onConflict(['client_id', 'arca_id']).merge(
                    ['tipo', 'asunto', 'organismo', 'fecha_recepcion', 'fecha_notificacion']
                );
            }

            await markSynced(trx, clientId, 'dfe', syncedAt, { dfe: notifications.length });
        });
    }
});
