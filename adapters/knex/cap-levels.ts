import type { Knex } from 'knex';
import { billingTypes } from '../../core/domain/monotributo.js';
import type { CapLevel } from '../../core/domain/monotributo.js';
import type { ClientStores } from '../../core/ports/unit-of-work.js';
import { toNullableBoolean, toNumber } from './column-values.js';
import { invoicesForSums, signedAmount } from './fast/answer-sums.js';
import { categoryTablesOf, categoryTablesVersion } from './repositories/answers.js';

// Where a monotributista's billing stood against its caps (monotributo_cap_levels, migration
// 021), in a client's unit of work: core works the level out and decides its event
// (core/use-cases/sync/system-writes.ts, checkCap); this store reads the billing and keeps the
// level.
export const capLevelStore = (trx: Knex.Transaction, clientId: number): ClientStores['monotributo'] => ({

    // One query: the client's classification, the level stored, the window's issued billing,
    // signed and read as the answers sum it (only for a monotributista; the covering index, not
    // a lookup of each invoice's row), and the category tables' fingerprint.
    async billing(range) {

        const signed = signedAmount('E', billingTypes);
        const version = categoryTablesVersion();
        const row = await trx('clients as c').leftJoin('monotributo_cap_levels as l', 'l.client_id', 'c.id').joinRaw(`cross join ${version.from}`).where('c.id', clientId).first(
            'c.monotributista',
            'c.categoria',
            'l.level',
            ...version.columns,
            trx.raw(
                `case when c.monotributista = 1 then (select coalesce(sum(${signed.sql}), 0) from ${invoicesForSums(trx)} where i.client_id = c.id and i.kind = 'E' and i.fecha between ? and ?) end as facturado`,
                [...signed.bindings, range.fromDate, range.toDate] as Knex.RawBinding[]
            )
        ) as Record<string, unknown> | undefined;
        if (!row || toNullableBoolean(row.monotributista) !== true) {
            return null;
        }

        return {
            categoria: row.categoria === null || row.categoria === undefined ? null : String(row.categoria),
            facturado: toNumber(row.facturado),
            level: (row.level === null || row.level === undefined ? 0 : toNumber(row.level)) as CapLevel,
            tablesVersion: version.columns.map((column) => String(row[column])).join(':')
        };
    },

    tables: () => categoryTablesOf(trx),

    async saveLevel(standing, previous, at) {

        await trx('monotributo_cap_levels').insert({
            client_id: clientId,
            level: standing.level,
            previous_level: previous,
            facturado: standing.facturado,
            tope: standing.tope,
            checked_at: at
        }).onConflict('client_id').merge(['level', 'previous_level', 'facturado', 'tope', 'checked_at']);
    }
});
