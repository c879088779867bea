import type { Knex } from 'knex';
import type { SctData, SctDebt } from '../../../core/domain/sct.js';
import { sctDebtChange } from '../../../core/domain/events.js';
import type { SctRepository } from '../../../core/ports/index.js';
import { toIso } from '../../../core/domain/time.js';
import { clientDataTransaction } from '../connection.js';
import { touchClient } from '../data-versions.js';
import { storableRow, textSizes, toNullableNumber, toNumber } from '../column-values.js';
import { statements } from '../statements.js';
import { markSynced } from './sync-states.js';
import { announce, isListened } from '../outbox.js';

const internals = {
    tables: ['sct_debts', 'sct_due_dates', 'sct_returns'] as const,
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
export const sctRepository = (knex: Knex, sql = statements(knex)): SctRepository => ({

    async get(clientId) {

        const [debts, dueDates, returns] = await Promise.all(internals.tables.map((table) => sql.all(`select t.* from ${table} t where t.client_id = ? order by t.position asc`, [clientId])));
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
    },

    async replace(clientId, data: SctData, syncedAt) {

        await clientDataTransaction(knex, async (trx) => {

            await touchClient(trx, clientId);
            // The debt as it was, for the account's webhooks (only when they listen).
            const change = await isListened(trx, clientId) ? sctDebtChange(
                internals.debts(await trx('sct_debts').where({ client_id: clientId }).orderBy('position')),
                data.deuda
            ) : null;
            if (change) {
                await announce(trx, clientId, { type: 'sct.deuda_cambio', system: 'sct', data: change }, syncedAt);
            }

            for (const table of internals.tables) {
                await trx(table).where({ client_id: clientId }).delete();
            }

            const base = (position: number) => ({ client_id: clientId, position });
            if (data.deuda.length) {
                await trx.batchInsert('sct_debts', data.deuda.map((item, i) => storableRow({
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
                }, textSizes.sct)), 200).transacting(trx);
            }

            if (data.vencimientos.length) {
                await trx.batchInsert('sct_due_dates', data.vencimientos.map((item, i) => storableRow({
                    ...base(i),
                    impuesto: item.impuesto,
                    concepto: item.concepto,
                    subconcepto: item.subconcepto,
                    periodo: item.periodo,
                    ant_cuota: item.antCuota,
                    vencimiento: internals.ms(item.vencimiento),
                    detalle: item.detalle
                }, textSizes.sct)), 200).transacting(trx);
            }

            if (data.ddjj.length) {
                await trx.batchInsert('sct_returns', data.ddjj.map((item, i) => storableRow({
                    ...base(i),
                    establecimiento: item.establecimiento,
                    impuesto: item.impuesto,
                    concepto: item.concepto,
                    subconcepto: item.subconcepto,
                    periodo: item.periodo,
                    ant_cuota: item.antCuota,
                    vencimiento: internals.ms(item.vencimiento)
                }, textSizes.sct)), 200).transacting(trx);
            }

            await markSynced(trx, clientId, 'sct', syncedAt, { sct: data.deuda.length + data.vencimientos.length + data.ddjj.length });
        });
    }
});
