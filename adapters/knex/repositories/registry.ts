import type { Knex } from 'knex';
import type { RegistryRepository } from '../../../core/ports/index.js';
import { markSynced } from './sync-states.js';

// The registry classification lives on the client row, where GET /v1/cuits filters on it.
export const registryRepository = (knex: Knex): RegistryRepository => ({

    async save(clientId, classification, syncedAt) {

        await knex.transaction(async (trx) => {

            await trx('clients').where({ id: clientId }).update({
                monotributista: classification.monotributista,
                autonomo: classification.autonomo,
                categoria: classification.categoria
            });

            await markSynced(trx, clientId, 'registry', syncedAt);
        });
    }
});
