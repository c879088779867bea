import type { Knex } from 'knex';
import type { RegistryRepository } from '../../../core/ports/index.js';
import { storableRow } from '../column-values.js';
import { clientDataTransaction } from '../connection.js';
import { touchAccountOfClient } from '../data-versions.js';
import { markSynced } from './sync-states.js';

// The registry classification lives on the client row, where GET /v1/cuits filters on it and
// shows it with its date: the account's data version moves too.
export const registryRepository = (knex: Knex): RegistryRepository => ({

    async save(clientId, classification, syncedAt) {

        await clientDataTransaction(knex, async (trx) => {

            // The account's version first (data-versions.ts); the client's with its fields.
            await touchAccountOfClient(trx, clientId);
            await trx('clients').where({ id: clientId }).update(storableRow({
                monotributista: classification.monotributista,
                autonomo: classification.autonomo,
                categoria: classification.categoria,
                data_version: trx.raw('data_version + 1')
            }));

            await markSynced(trx, clientId, 'registry', syncedAt, { registry: 1 });
        });
    }
});
