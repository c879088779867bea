import type { Knex } from 'knex';
import type { SctDebt } from '../../../core/domain/sct.js';
import { recordChanges } from '../../../core/domain/events.js';
import type { SctRepository } from '../../../core/ports/index.js';
import type { ClientStores } from '../../../core/ports/unit-of-work.js';
import { toIso } from '../../../core/domain/time.js';
import { touchClient } from '../data-versions.js';
import { storableRow, textSizes, toNullableNumber, toNumber } from '../column-values.js';
import { sctBlockSql } from '../fast/cuit-reads.js';
import { statements } from '../fast/statements.js';
import { storedValue } from '../outbox.js';

const internals = {
    tables: ['sct_debts', 'sct_due_dates', 'sct_returns'] as const,

    // What names a record of each block (what the authority lists it by), and what else it holds.
    keys: {
        sct_debts: ['establecimiento', 'impuesto', 'concepto', 'subconcepto', 'periodo', 'ant_cuota'],
        sct_due_dates: ['impuesto', 'concepto', 'subconcepto', 'periodo', 'ant_cuota'],
        sct_returns: ['establecimiento', 'impuesto', 'concepto', 'subconcepto', 'periodo', 'ant_cuota']
    },
    values: {
        sct_debts: ['vencimiento', 'saldo', 'int_resarcitorios', 'int_punitorios'],
        sct_due_dates: ['vencimiento', 'detalle'],
        sct_returns: ['vencimiento']
    },
    ms: (iso: string): number => new Date(iso).getTime(),

    debts: (rows: readonly Record<string, unknown>[]): SctDebt[] => rows.map((row) => ({
        establecimiento: String(row.establecimiento),
        impuesto: String(row.impuesto),
        concepto: String(row.concepto),
        subconcepto: String(row.subconcepto),
        periodo: String(row.periodo),
        antCuota: String(row.ant_cuota),
        vencimiento: toIso(toNullableNumber(row.vencimiento)),
        saldo: toNumber(row.saldo),
        intResarcitorios: toNumber(row.int_resarcitorios),
        intPunitorios: toNumber(row.int_punitorios)
    }))
};

// The three blocks are replaced whole on each sync: the authority shows the current state,
// not a history.
export const sctRepository = (knex: Knex, sql = statements(knex)): Omit<SctRepository, 'replace'> => ({

    async get(clientId) {

        const [debts, dueDates, returns] = await Promise.all(internals.tables.map((table) => sql.all(sctBlockSql(table), [clientId])));
        return {
            deuda: internals.debts(debts!),
            vencimientos: dueDates!.map((row: Record<string, unknown>) => ({
                impuesto: String(row.impuesto),
                concepto: String(row.concepto),
                subconcepto: String(row.subconcepto),
                periodo: String(row.periodo),
                antCuota: String(row.ant_cuota),
                vencimiento: new Date(toNumber(row.vencimiento)).toISOString(),
                detalle: String(row.detalle)
            })),
            ddjj: returns!.map((row: Record<string, unknown>) => ({
                establecimiento: String(row.establecimiento),
                impuesto: String(row.impuesto),
                concepto: String(row.concepto),
                subconcepto: String(row.subconcepto),
                periodo: String(row.periodo),
                antCuota: String(row.ant_cuota),
                vencimiento: new Date(toNumber(row.vencimiento)).toISOString()
            }))
        };
    }
});

// The three blocks replaced in a client's unit of work (core/ports/unit-of-work.ts); counted:
// the debts as they were and as stored now, and what the sync changed in each block.
export const sctStore = (trx: Knex.Transaction, clientId: number): ClientStores['sct'] => ({

    async replace(data, _syncedAt, count) {

        const base = (position: number) => ({ client_id: clientId, position });
        const rows = {
            sct_debts: data.deuda.map((item, i) => storableRow({
                ...base(i),
                establecimiento: item.establecimiento,
                impuesto: item.impuesto,
                concepto: item.concepto,
                subconcepto: item.subconcepto,
                periodo: item.periodo,
                ant_cuota: item.antCuota,
                vencimiento: item.vencimiento === null ? null : internals.ms(item.vencimiento),
                saldo: item.saldo,
                int_resarcitorios: item.intResarcitorios,
                int_punitorios: item.intPunitorios
            }, textSizes.sct)),
            sct_due_dates: data.vencimientos.map((item, i) => storableRow({
                ...base(i),
                impuesto: item.impuesto,
                concepto: item.concepto,
                subconcepto: item.subconcepto,
                periodo: item.periodo,
                ant_cuota: item.antCuota,
                vencimiento: internals.ms(item.vencimiento),
                detalle: item.detalle
            }, textSizes.sct)),
            sct_returns: data.ddjj.map((item, i) => storableRow({
                ...base(i),
                establecimiento: item.establecimiento,
                impuesto: item.impuesto,
                concepto: item.concepto,
                subconcepto: item.subconcepto,
                periodo: item.periodo,
                ant_cuota: item.antCuota,
                vencimiento: internals.ms(item.vencimiento)
            }, textSizes.sct))
        } satisfies Record<typeof internals.tables[number], Record<string, unknown>[]>;

        await touchClient(trx, clientId);
        let replaced = null;
        if (count) {
            const before = Object.fromEntries(await Promise.all(internals.tables.map(async (table) => [
                table,
                await trx(table).where({ client_id: clientId }).orderBy('position') as Record<string, unknown>[]
            ]))) as Record<typeof internals.tables[number], Record<string, unknown>[]>;
            const changes = { nuevos: 0, cambiados: 0, eliminados: 0 };
            for (const table of internals.tables) {
                const counted = recordChanges(
                    before[table],
                    rows[table],
                    (row) => storedValue(row, internals.keys[table]),
                    (row) => storedValue(row, internals.values[table])
                );
                changes.nuevos += counted.nuevos;
                changes.cambiados += counted.cambiados;
                changes.eliminados += counted.eliminados;
            }

            replaced = { changes, debts: { before: internals.debts(before.sct_debts), after: internals.debts(rows.sct_debts) } };
        }

        for (const table of internals.tables) {
            await trx(table).where({ client_id: clientId }).delete();
            if (rows[table].length) {
                await trx.batchInsert(table, rows[table], 200).transacting(trx);
            }
        }

        return replaced;
    }
});
