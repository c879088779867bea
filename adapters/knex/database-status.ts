import type { Knex } from 'knex';
import type { DatabaseStatus } from '../../core/ports/database.js';
import { databaseFailureKind } from './errors.js';

// The database's status for the front ends (core/ports/database.ts). A failure asks the client
// to come back in a few seconds: a lock is released soon, an outage takes longer but a client
// retrying every few seconds is no load.
const internals = {
    retryAfter: { unavailable: 5, busy: 1 }
};

export const databaseStatus = (knex: Knex): DatabaseStatus => ({

    async ping(timeoutMs) {

        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_resolve, reject) => {

            timer = setTimeout(() => reject(Object.assign(new Error('la base de datos no respondió a tiempo'), { code: 'ETIMEDOUT' })), timeoutMs);
        });
        try {
            await Promise.race([knex.raw('select 1'), late]);
        }
        finally {
            clearTimeout(timer);
        }
    },

    failureOf(err) {

        const kind = databaseFailureKind(err);
        return kind ? { kind, retryAfter: internals.retryAfter[kind] } : null;
    }
});
