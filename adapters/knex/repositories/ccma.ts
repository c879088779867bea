import type { Knex } from 'knex';
import type { CcmaBalances } from '../../../core/domain/ccma.js';
import { periodFromKey, periodKey } from '../../../core/domain/ccma.js';
import type { CcmaRepository } from '../../../core/ports/index.js';
import { clientDataTransaction, dialectOf } from '../connection.js';
import { touchClient } from '../data-versions.js';
import { listQueries } from '../list-queries.js';
import { countOf, storableRow, textSizes, toNullableNumber, toNumber } from '../column-values.js';
import { statements } from '../statements.js';
import { markSynced } from './sync-states.js';

const internals = {
    saveBalances: (trx: Knex.Transaction, clientId: number, balances: CcmaBalances) => trx('ccma_balances')
        .insert({ client_id: clientId, saldo_deudor: balances.saldoDeudor, saldo_acreedor: balances.saldoAcreedor })
        .onConflict('client_id')
        .merge(['saldo_deudor', 'saldo_acreedor'])
};

export const ccmaRepository = (knex: Knex, sql = statements(knex), queries = listQueries(dialectOf(knex)).ccma): CcmaRepository => ({

    async getBalances(clientId) {

        const row = await knex('ccma_balances').where({ client_id: clientId }).first();
        return row ? { saldoDeudor: toNullableNumber(row.saldo_deudor), saldoAcreedor: toNullableNumber(row.saldo_acreedor) } : null;
    },

    // A page is a run of periods, newest first; then every movement of those periods.
    async listMovements(clientId, page) {

        const [countRow, periods] = await Promise.all([
            sql.first(queries.count, [clientId]),
            sql.all(queries.periods, [clientId, page.limit, page.offset])
        ]);

        const keys = periods.map((row) => String(row.period_key));
        const rows = keys.length ? await sql.all(queries.movements(keys.length), [clientId, ...keys]) : [];

        return {
            items: rows.map((row: Record<string, unknown>) => ({
                orden: toNumber(row.orden),
                periodo: periodFromKey(String(row.period_key)),
                impuesto: String(row.impuesto),
                concepto: String(row.concepto),
                subconcepto: String(row.subconcepto),
                descripcion: String(row.descripcion),
                fechaMovimiento: new Date(toNumber(row.fecha_movimiento)).toISOString(),
                debe: toNullableNumber(row.debe),
                haber: toNullableNumber(row.haber),
                saldo: toNumber(row.saldo)
            })),
            total: countOf(countRow)
        };
    },

    async saveBalances(clientId, balances) {

        await clientDataTransaction(knex, async (trx) => {

            await touchClient(trx, clientId);
            await internals.saveBalances(trx, clientId, balances);
        });
    },

    async replace(clientId, balances, movements, syncedAt) {

        await clientDataTransaction(knex, async (trx) => {

            await touchClient(trx, clientId);
            await internals.saveBalances(trx, clientId, balances);

            await trx('ccma_movements').where({ client_id: clientId }).delete();
            if (movements.length) {
                await trx.batchInsert('ccma_movements', movements.map((movement) => storableRow({
                    client_id: clientId,
                    period_key: periodKey(movement.periodo),
                    orden: movement.orden,
                    impuesto: movement.impuesto,
                    concepto: movement.concepto,
                    subconcepto: movement.subconcepto,
                    descripcion: movement.descripcion,
                    fecha_movimiento: new Date(movement.fechaMovimiento).getTime(),
                    debe: movement.debe,
                    haber: movement.haber,
                    saldo: movement.saldo
                }, textSizes.ccma)), 300).transacting(trx);
            }

            await markSynced(trx, clientId, 'ccma', syncedAt, { ccma: movements.length });
        });
    }
});
