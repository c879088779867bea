import type { Knex } from 'knex';
import type { Principal } from '../../../core/domain/access.js';
import { arcaDay, arcaDayStart } from '../../../core/domain/arca-day.js';
import type { Categoria, ClientType } from '../../../core/domain/client.js';
import { categories } from '../../../core/domain/client.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import { formatCuit } from '../../../core/domain/cuit.js';
import { addDays, firstDayOf, lastDayOf } from '../../../core/domain/months.js';
import type { CategoryTable } from '../../../core/domain/monotributo.js';
import { billingTypes, purchaseTypes } from '../../../core/domain/monotributo.js';
import type { AnswerClient, AnswersRepository, CalendarFeedRepository } from '../../../core/ports/index.js';
import { toNullableBoolean, toNullableNumber, toNumber } from '../column-values.js';
import type { Binding } from '../fast/statements.js';
import type { Statements } from '../fast/statements.js';
import { placeholders, statements } from '../fast/statements.js';
import { agendaClientsSql, invoicesForSums, ivaTotalsSql, monotributistasSql, monotributoMonthsSql, sctAgendaSql, signedAmount } from '../fast/answer-sums.js';
import { visibleClientsWhere } from './clients.js';

// The answers' reads (docs/answers.md). The monotributo control of a whole portfolio is one
// aggregate: each visible monotributista's invoices of the window summed by client and month,
// signed by core's type lists (billingTypes, purchaseTypes), read through the invoices' list
// index (client, kind, fecha); no invoice row leaves the database.

const internals = {
    // The clients the principal sees, or the one of them a CUIT's agenda asks for.
    visibleOrOne(principal: Principal, clientId: number | undefined): { where: string; bindings: Binding[] } {

        const visible = visibleClientsWhere(principal);
        return clientId === undefined ? visible : { where: `${visible.where} and c.id = ?`, bindings: [...visible.bindings, clientId] };
    },

    capColumn: (letter: string): string => `tope_${letter.toLowerCase()}`,

    // One client, or some CUITs (none: no row), or every one.
    only(scope: { clientId: number } | { cuits: readonly Cuit[] } | undefined): { sql: string; bindings: Binding[] } {

        if (!scope) {
            return { sql: '', bindings: [] };
        }

        return 'clientId' in scope ? { sql: ' and c.id = ?', bindings: [scope.clientId] } :
            scope.cuits.length ? { sql: ` and c.cuit in (${placeholders(scope.cuits.length)})`, bindings: [...scope.cuits] } : { sql: ' and 1 = 0', bindings: [] };
    },

    client: (row: Record<string, unknown>): AnswerClient => ({
        id: toNumber(row.id),
        cuit: String(row.cuit) as Cuit,
        displayName: String(row.display_name),
        tipo: String(row.tipo) as ClientType,
        monotributista: toNullableBoolean(row.monotributista),
        categoria: row.categoria === null || row.categoria === undefined ? null : String(row.categoria)
    })
};

// Every category table loaded, by vigenciaDesde (also read by an invoice save: its cap levels).
export const categoryTablesOf = async (knex: Knex): Promise<CategoryTable[]> => {

    const rows = await knex('monotributo_tables').select('*').orderBy('vigencia_desde') as Record<string, unknown>[];
    return rows.map((row) => ({
        vigenciaDesde: String(row.vigencia_desde),
        fuente: String(row.fuente),
        topes: Object.fromEntries(categories.map((letter) => [letter, toNumber(row[internals.capColumn(letter)])])) as Record<Categoria, number>
    }));
};

// The category tables' fingerprint, as a derived table of one row (`tables_version`): how many,
// the last load and each category's caps summed, so that loading a table or replacing one's caps
// changes it. Read with an invoice save's billing (its cap levels keep the tables read under it).
export const categoryTablesVersion = (): { from: string; columns: string[] } => {

    const columns = ['count(*)', 'max(loaded_at)', ...categories.map((letter) => `sum(${internals.capColumn(letter)})`)];
    const names = columns.map((_, index) => `tables_${index}`);
    return {
        from: `(select ${columns.map((column, index) => `${column} as ${names[index]}`).join(', ')} from monotributo_tables) tables_version`,
        columns: names
    };
};

export const answersRepository = (knex: Knex, sql = statements(knex)): AnswersRepository => answersQueries(knex, sql, invoicesForSums(knex));

const answersQueries = (knex: Knex, sql: Statements, invoicesFrom: string): AnswersRepository => ({

    categoryTables: () => categoryTablesOf(knex),

    async saveCategoryTable(table, at) {

        const row = {
            fuente: table.fuente,
            ...Object.fromEntries(categories.map((letter) => [internals.capColumn(letter), table.topes[letter]])),
            loaded_at: at
        };
        return knex.transaction(async (trx) => {

            const updated = await trx('monotributo_tables').where({ vigencia_desde: table.vigenciaDesde }).update(row);
            if (updated) {
                return 'replaced' as const;
            }

            await trx('monotributo_tables').insert({ vigencia_desde: table.vigenciaDesde, ...row });
            return 'created' as const;
        });
    },

    async monotributoMonths(principal, range, scope) {

        const visible = visibleClientsWhere(principal);
        const only = internals.only(scope);
        const billed = signedAmount('E', billingTypes);
        const bought = signedAmount('R', purchaseTypes);
        // Both at once: the sums do not need the clients' rows.
        const [clients, sums] = await Promise.all([
            sql.all(monotributistasSql(visible.where, only.sql), [...visible.bindings, ...only.bindings]),
            sql.all(
                monotributoMonthsSql(invoicesFrom, billed.sql, bought.sql, visible.where, only.sql),
                [...billed.bindings, ...bought.bindings, firstDayOf(range.desde), lastDayOf(range.hasta), ...visible.bindings, ...only.bindings]
            )
        ]);
        const months = new Map<number, { mes: string; facturado: number; compras: number }[]>();
        for (const row of sums) {
            const id = toNumber(row.client_id);
            const list = months.get(id) ?? [];
            list.push({ mes: String(row.mes), facturado: toNumber(row.facturado), compras: toNumber(row.compras) });
            months.set(id, list);
        }

        return clients.map((row) => ({ client: internals.client(row), months: months.get(toNumber(row.id)) ?? [] }));
    },

    async ivaTotals(clientId, range) {

        const rows = await sql.all(
            ivaTotalsSql(invoicesFrom),
            [clientId, firstDayOf(range.desde), lastDayOf(range.hasta)]
        );
        return rows.map((row) => ({
            mes: String(row.mes),
            kind: row.kind === 'E' ? 'issued' as const : 'received' as const,
            tipo: String(row.tipo),
            iva: toNumber(row.iva),
            cantidad: toNumber(row.cantidad)
        }));
    },

    async agendaClients(principal, clientId) {

        const visible = internals.visibleOrOne(principal, clientId);
        const rows = await sql.all(agendaClientsSql(visible.where), visible.bindings);
        return rows.map((row) => ({
            id: toNumber(row.id),
            cuit: String(row.cuit),
            displayCuit: formatCuit(String(row.cuit) as Cuit),
            nombre: String(row.display_name),
            monotributista: toNullableBoolean(row.monotributista)
        }));
    },

    async arcaMeter(clientId) {

        const row = await knex('arca_meters').where({ client_id: clientId }).first() as Record<string, unknown> | undefined;
        return row ? {
            facturado: toNullableNumber(row.facturado),
            tope: toNullableNumber(row.tope),
            periodo: row.periodo as string | null,
            debeRecategorizar: toNullableBoolean(row.debe_recategorizar),
            recategorizacionDesde: row.recategorizacion_desde as string | null,
            recategorizacionHasta: row.recategorizacion_hasta as string | null,
            leidoAt: toNumber(row.leido_at)
        } : null;
    },

    async sctAgenda(principal, range, clientId) {

        const visible = internals.visibleOrOne(principal, clientId);
        const from = arcaDayStart(range.desde);
        const to = arcaDayStart(addDays(range.hasta, 1)) - 1;
        const rows = await sql.all(
            sctAgendaSql(visible.where),
            [...visible.bindings, from, to, ...visible.bindings, from, to, ...visible.bindings, from, to]
        );
        return rows.map((row) => ({
            clientId: toNumber(row.client_id),
            kind: String(row.kind) as 'vencimiento' | 'deuda' | 'ddjj',
            fecha: arcaDay(toNumber(row.vencimiento)),
            impuesto: String(row.impuesto),
            concepto: String(row.concepto),
            periodo: String(row.periodo),
            detalle: row.detalle === null || row.detalle === undefined ? null : String(row.detalle),
            importe: toNullableNumber(row.importe)
        }));
    }
});

export const calendarFeedRepository = (knex: Knex): CalendarFeedRepository => ({

    async replace(input) {

        await knex.transaction(async (trx) => {

            await trx('calendar_feeds').where({ user_id: input.userId }).delete();
            await trx('calendar_feeds').insert({ user_id: input.userId, token_hash: input.tokenHash, hint: input.hint, created_at: input.createdAt });
        });
    },

    async revoke(userId) {

        return await knex('calendar_feeds').where({ user_id: userId }).delete() > 0;
    },

    async findUserId(tokenHash) {

        const row = await knex('calendar_feeds').select('user_id').where({ token_hash: tokenHash }).first() as Record<string, unknown> | undefined;
        return row ? toNumber(row.user_id) : null;
    }
});
