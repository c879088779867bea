import type { Knex } from 'knex';
import type { ClientStores } from '../../../core/ports/unit-of-work.js';
import { storableRow } from '../column-values.js';
import { touchAccountOfClient } from '../data-versions.js';
import { storedValue } from '../outbox.js';

const internals = {
    columns: ['monotributista', 'autonomo', 'categoria'],
    meterValues: ['facturado', 'tope', 'periodo', 'debe_recategorizar', 'recategorizacion_desde', 'recategorizacion_hasta', 'leido_at']
};

// The registry classification lives on the client row, where GET /v1/cuits filters on it and
// shows it with its date: the account's data version moves too. Its store in a client's unit
// of work (core/ports/unit-of-work.ts).
export const registryStore = (trx: Knex.Transaction, clientId: number): ClientStores['registry'] => ({

    // One row per client, the last reading (arca_meters); the client's data version moves
    // with the registry's save beside it.
    async saveMeter(meter, readAt) {

        await trx('arca_meters').insert(storableRow({
            client_id: clientId,
            facturado: meter.facturado,
            tope: meter.tope,
            periodo: meter.periodo,
            debe_recategorizar: meter.debeRecategorizar,
            recategorizacion_desde: meter.recategorizacionDesde,
            recategorizacion_hasta: meter.recategorizacionHasta,
            leido_at: readAt
        })).onConflict('client_id').merge(internals.meterValues);
    },

    async save(classification, _syncedAt, count) {

        // The account's version first (data-versions.ts); the client's with its fields.
        await touchAccountOfClient(trx, clientId);
        const row = storableRow({
            monotributista: classification.monotributista,
            autonomo: classification.autonomo,
            categoria: classification.categoria
        });

        // One record: new on the first sync, changed when the classification moved.
        let changes = null;
        if (count) {
            const before = await trx('clients as c').leftJoin('sync_states as s', (join) => join.on('s.client_id', 'c.id').andOnVal('s.system', 'registry'))
                .select('c.monotributista', 'c.autonomo', 'c.categoria', 's.synced_at').where('c.id', clientId).first() as Record<string, unknown> | undefined;
            const first = !before || before.synced_at === null || before.synced_at === undefined;
            const changed = !first && storedValue(before, internals.columns) !== storedValue(row, internals.columns);
            changes = { nuevos: first ? 1 : 0, cambiados: changed ? 1 : 0, eliminados: 0 };
        }

        await trx('clients').where({ id: clientId }).update({ ...row, data_version: trx.raw('data_version + 1') });
        return changes;
    }
});
