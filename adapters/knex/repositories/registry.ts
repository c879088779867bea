import type { Knex } from 'knex';
import type { RegistryRepository } from '../../../core/ports/index.js';
import { storableRow } from '../column-values.js';
import { clientDataTransaction, dialectOf } from '../connection.js';
import { touchAccountOfClient } from '../data-versions.js';
import { changesStep, isListened, storedValue } from '../outbox.js';
import { markSynced } from './sync-states.js';

const internals = {
    columns: ['monotributista', 'autonomo', 'categoria']
};

// The registry classification lives on the client row, where GET /v1/cuits filters on it and
// shows it with its date: the account's data version moves too.
export const registryRepository = (knex: Knex): RegistryRepository => ({

    async save(clientId, classification, syncedAt) {

        await clientDataTransaction(knex, async (trx) => {

            // The account's version first (data-versions.ts); the client's with its fields.
            await touchAccountOfClient(trx, clientId);
            const row = storableRow({
                monotributista: classification.monotributista,
                autonomo: classification.autonomo,
                categoria: classification.categoria
            });

            // One record: new on the first sync, changed when the classification moved.
            if (await isListened(trx, clientId)) {
                const before = await trx('clients as c').leftJoin('sync_states as s', (join) => join.on('s.client_id', 'c.id').andOnVal('s.system', 'registry'))
                    .select('c.monotributista', 'c.autonomo', 'c.categoria', 's.synced_at').where('c.id', clientId).first() as Record<string, unknown> | undefined;
                const first = !before || before.synced_at === null || before.synced_at === undefined;
                const changed = !first && storedValue(before, internals.columns) !== storedValue(row, internals.columns);
                const step = changesStep(dialectOf(knex), clientId, 'registry', { nuevos: first ? 1 : 0, cambiados: changed ? 1 : 0, eliminados: 0 }, syncedAt);
                await trx.raw(step.sql, step.bindings as Knex.RawBinding[]);
            }

            await trx('clients').where({ id: clientId }).update({ ...row, data_version: trx.raw('data_version + 1') });
            await markSynced(trx, clientId, 'registry', syncedAt);
        });
    }
});
