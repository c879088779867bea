import { arcaDay } from '../../core/domain/arca-day.js';
import { categories } from '../../core/domain/client.js';
import { firstDayOf, lastDayOf } from '../../core/domain/months.js';
import type { CategoryTable } from '../../core/domain/monotributo.js';
import { billingTypes, billingWindow, capLevels, tableInForce } from '../../core/domain/monotributo.js';
import type { Timestamp } from '../../core/domain/time.js';
import type { Dialect } from './connection.js';
import { capCrossingStep } from './outbox.js';
import { signedAmount } from './repositories/answers.js';
import type { Step } from './fast/statements.js';

// A monotributista's cap level (core/domain/monotributo.ts, capLevels) worked out again by an
// invoice save, in its transaction (repositories/invoices.ts: one round trip on MySQL, so as
// statements sent with its rows): the last 12 months' billing of its issued invoices, signed
// as the answers sign it, against the table in force on the save's Buenos Aires day. The
// level before is kept beside it, and the outbox writes `monotributo.tope` when it rose.

const internals = {
    // The category's cap from the client's categoria (null: not one of A–K).
    capCase: `case c.categoria ${categories.map(() => 'when ? then ?').join(' ')} else null end`,

    levelCase: 'case when t.total > ? then 3 when k.tope is null then 0 when t.total > k.tope then 2 when t.total >= ? * k.tope then 1 else 0 end',

    upsertTail: (dialect: Dialect): string => (dialect === 'mysql'
        // MySQL assigns left to right: previous_level takes the level stored before.
        ? ' on duplicate key update monotributo_cap_levels.previous_level = monotributo_cap_levels.level, monotributo_cap_levels.level = values(level), ' +
            'monotributo_cap_levels.facturado = values(facturado), monotributo_cap_levels.tope = values(tope), monotributo_cap_levels.checked_at = values(checked_at)'
        : ' on conflict (client_id) do update set previous_level = monotributo_cap_levels.level, level = excluded.level, ' +
            'facturado = excluded.facturado, tope = excluded.tope, checked_at = excluded.checked_at')
};

// The level's upsert and the crossing's event, for a save of issued invoices; nothing for a
// client the registry does not call a monotributista, nor without tables.
export const capLevelSteps = (dialect: Dialect, clientId: number, tables: readonly CategoryTable[], syncedAt: Timestamp): Step[] => {

    if (!tables.length) {
        return [];
    }

    const today = arcaDay(syncedAt);
    const { table } = tableInForce(tables, today);
    const window = billingWindow(today);
    const signed = signedAmount('E', billingTypes);
    const upsert: Step = {
        sql: 'insert into monotributo_cap_levels (client_id, level, previous_level, facturado, tope, checked_at) ' +
            `select k.id, ${internals.levelCase}, 0, t.total, k.tope, ? ` +
            `from (select c.id, ${internals.capCase} as tope from clients c where c.id = ? and c.monotributista = 1) k ` +
            `cross join (select coalesce(sum(${signed.sql}), 0) as total from invoices i where i.client_id = ? and i.kind = 'E' and i.fecha between ? and ?) t ` +
            `where k.id is not null${internals.upsertTail(dialect)}`,
        bindings: [
            table.topes.K,
            capLevels.nearShare,
            syncedAt,
            ...categories.flatMap((letter) => [letter, table.topes[letter]]),
            clientId,
            ...signed.bindings,
            clientId,
            firstDayOf(window.desde),
            lastDayOf(window.hasta)
        ]
    };
    return [upsert, capCrossingStep(dialect, clientId, { topeMaximo: table.topes.K, ventana: window }, syncedAt)];
};
