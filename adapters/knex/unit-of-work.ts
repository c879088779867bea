import type { Knex } from 'knex';
import type { UnitOfWork } from '../../core/ports/unit-of-work.js';
import { capLevelStore } from './cap-levels.js';
import { clientDataTransaction, dialectOf } from './connection.js';
import { outbox } from './outbox.js';
import { ccmaStore } from './repositories/ccma.js';
import { keyOfClient } from './repositories/health.js';
import { notificationStore } from './repositories/notifications.js';
import { registryStore } from './repositories/registry.js';
import { sctStore } from './repositories/sct.js';
import { syncStateStore } from './repositories/sync-states.js';

// The unit of work (core/ports/unit-of-work.ts) as one knex transaction over the client's data
// (a client data transaction, connection.ts: read committed on MySQL, and run again whole when
// it loses to another over locks, lock-retries.ts), its stores and its outbox on that transaction.
export const unitOfWork = (knex: Knex): UnitOfWork => ({

    transaction: (clientId, work) => clientDataTransaction(knex, (trx) => work({
        outbox: outbox(trx, dialectOf(knex), clientId),
        exists: async () => Boolean(await trx('clients').select('id').where({ id: clientId }).first()),
        registry: registryStore(trx, clientId),
        sct: sctStore(trx, clientId),
        ccma: ccmaStore(trx, clientId),
        notifications: notificationStore(trx, clientId),
        syncStates: syncStateStore(trx, dialectOf(knex), clientId),
        monotributo: capLevelStore(trx, clientId),
        keyOf: (day) => keyOfClient(trx, clientId, day)
    }))
});
