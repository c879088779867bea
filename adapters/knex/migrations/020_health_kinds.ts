import type { Knex } from 'knex';
import { stateOfOlderError, storeStatesOfOlderErrors } from './older-error-words.js';

// Health is a lookup of stored states (core/domain/health.ts reads no message any more):
// - a failure of sync_states still without its state (written by a process of a version before
//   014 while 018 ran, or since) gets the one its words name;
// - a system's change of health waiting in the outbox (webhook_events, salud.cambio) carries
//   its state and the one before in `data`, as the sync writes them now; those written before
//   had only the errors' words.
// Both read the words of older-error-words.ts, frozen, once.

const internals = {
    batch: 500,

    // The state an event's error names, as delivery read it before (no error: ok; none before: pending).
    stateOf: (error: string | null, none: string): string => (error === null ? none : stateOfOlderError(error))
};

export const up = async (knex: Knex): Promise<void> => {

    await storeStatesOfOlderErrors(knex);

    for (let after = 0; ;) {
        const rows = await knex('webhook_events').select('id', 'previous_error', 'error', 'data').where({ type: 'salud.cambio' }).whereNotNull('sync_system')
            .andWhere('id', '>', after).orderBy('id').limit(internals.batch) as { id: number; previous_error: string | null; error: string | null; data: string | null }[];
        if (!rows.length) {
            return;
        }

        for (const row of rows) {
            const data = (row.data === null ? {} : JSON.parse(row.data)) as { estado?: string; estadoAnterior?: string };
            if (data.estado === undefined || data.estadoAnterior === undefined) {
                const states = { estado: internals.stateOf(row.error, 'ok'), estadoAnterior: data.estadoAnterior ?? internals.stateOf(row.previous_error, 'pendiente') };
                await knex('webhook_events').where({ id: row.id }).update({ data: JSON.stringify({ ...data, ...states }) });
            }
        }

        after = Number(rows.at(-1)!.id);
    }
};

// The states written stay: they are what the errors said.
export const down = async (): Promise<void> => {};
