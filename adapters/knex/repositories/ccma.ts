import type { Knex } from 'knex';
import type { CcmaBalances } from '../../../core/domain/ccma.js';
import { periodFromKey, periodKey } from '../../../core/domain/ccma.js';
import type { CcmaRepository } from '../../../core/ports/index.js';
import type { ClientStores } from '../../../core/ports/unit-of-work.js';
import { clientDataTransaction, dialectOf } from '../connection.js';
import { touchClient } from '../data-versions.js';
import { listQueries } from '../fast/list-queries.js';
import { countOf, storableRow, textSizes, toNullableNumber, toNumber } from '../column-values.js';
import { statements } from '../fast/statements.js';
import { recordChanges } from '../../../core/domain/events.js';
import { storedValue } from '../outbox.js';

const internals = {
    // What names a movement (its period and place in it), and what else it holds.
    movementKey: ['period_key', 'orden'],
    movementValues: ['impuesto', 'concepto', 'subconcepto', 'descripcion', 'fecha_movimiento', 'debe', 'haber', 'saldo'],
    balanceValues: ['saldo_deudor', 'saldo_acreedor'],

    saveBalances: (trx: Knex.Transaction, clientId: number, balances: CcmaBalances) => trx('ccma_balances')
        .insert({ client_id: clientId, saldo_deudor: balances.saldoDeudor, saldo_acreedor: balances.saldoAcreedor })
        .onConflict('client_id')
        .merge(['saldo_deudor', 'saldo_acreedor'])
};

export const ccmaRepository = (knex: Knex, sql = statements(knex), queries = listQueries(dialectOf(knex)).ccma): Omit<CcmaRepository, 'replace'> => ({

    async getBalances(clientId) {

        const row = await knex('ccma_balances').where({ client_id: clientId }).first();
        return row ? { saldoDeudor: toNullableNumber(row.saldo_deudor), saldoAcreedor: toNullableNumber(row.saldo_acreedor) } : null;
    },

    // A page is a run of periods, newest first; then every movement of those periods.
    async listMovementsByPeriod(clientId, page) {

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
    }
});

// The movements and balances replaced whole, in a client's unit of work
// (core/ports/unit-of-work.ts); counted: the movements, and the balances as one more record.
export const ccmaStore = (trx: Knex.Transaction, clientId: number): ClientStores['ccma'] => ({

    async replace(balances, movements, _syncedAt, count) {

        const rows = movements.map((movement) => storableRow({
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
        }, textSizes.ccma));

        await touchClient(trx, clientId);
        let changes = null;
        if (count) {
            const [before, balance] = await Promise.all([
                trx('ccma_movements').where({ client_id: clientId }) as Promise<Record<string, unknown>[]>,
                trx('ccma_balances').where({ client_id: clientId }).first() as Promise<Record<string, unknown> | undefined>
            ]);
            changes = recordChanges(
                before,
                rows,
                (row) => storedValue(row, internals.movementKey),
                (row) => storedValue(row, internals.movementValues)
            );
            const saldos = { saldo_deudor: balances.saldoDeudor, saldo_acreedor: balances.saldoAcreedor };
            changes.nuevos += balance ? 0 : 1;
            changes.cambiados += balance && storedValue(balance, internals.balanceValues) !== storedValue(saldos, internals.balanceValues) ? 1 : 0;
        }

        await internals.saveBalances(trx, clientId, balances);
        await trx('ccma_movements').where({ client_id: clientId }).delete();
        if (rows.length) {
            await trx.batchInsert('ccma_movements', rows, 300).transacting(trx);
        }

        return changes;
    }
});
