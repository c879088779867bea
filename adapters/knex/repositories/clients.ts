import type { Knex } from 'knex';
import type { Principal } from '../../../core/domain/access.js';
import type { ClientListRow, ClientRecord, ClientType } from '../../../core/domain/client.js';
import { sortKey } from '../../../core/domain/client.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import type { ClientRepository } from '../../../core/ports/index.js';
import { isUniqueViolation } from '../errors.js';
import { countOf, toNullableBoolean, toNullableNumber, toNumber } from '../rows.js';

const internals = {
    columns: [
        'c.id', 'c.public_id', 'c.account_id', 'c.cuit', 'c.tipo', 'c.nombre', 'c.apellido', 'c.razon_social',
        'c.representative_id', 'c.display_name', 'c.email', 'c.telefono', 'c.monotributista', 'c.autonomo', 'c.categoria'
    ],

    toRecord: (row: Record<string, unknown>): ClientRecord => ({
        id: toNumber(row.id),
        publicId: String(row.public_id),
        accountId: toNumber(row.account_id),
        cuit: String(row.cuit) as Cuit,
        tipo: row.tipo as ClientType,
        nombre: row.nombre as string | null,
        apellido: row.apellido as string | null,
        razonSocial: row.razon_social as string | null,
        representativeId: toNullableNumber(row.representative_id),
        displayName: String(row.display_name),
        email: row.email as string | null,
        telefono: row.telefono as string | null,
        monotributista: toNullableBoolean(row.monotributista),
        autonomo: toNullableBoolean(row.autonomo),
        categoria: row.categoria as string | null
    }),

    // Owners manage the whole account; members only what is assigned to them.
    visibleTo(knex: Knex, principal: Principal): Knex.QueryBuilder {

        const query = knex('clients as c').where('c.account_id', principal.accountId);
        if (principal.role !== 'owner') {
            query.whereExists(knex('user_clients as uc').select(knex.raw('1')).whereRaw('uc.client_id = c.id').andWhere('uc.user_id', principal.userId));
        }

        return query;
    }
};

export const clientRepository = (knex: Knex): ClientRepository => ({

    async insert(client) {

        try {
            const [id] = await knex('clients').insert({
                public_id: client.publicId,
                account_id: client.accountId,
                cuit: client.cuit,
                tipo: client.tipo,
                nombre: client.nombre,
                apellido: client.apellido,
                razon_social: client.razonSocial,
                representative_id: client.representativeId,
                display_name: client.displayName,
                sort_name: client.sortName,
                email: client.email,
                telefono: client.telefono,
                clave_arca: client.sealedKey,
                created_at: client.createdAt,
                updated_at: client.createdAt
            });

            const row = await knex('clients as c').select(internals.columns).where('c.id', Number(id)).first();
            return internals.toRecord(row);
        }
        catch (err) {
            if (isUniqueViolation(err)) {
                return null;
            }

            throw err;
        }
    },

    async findVisible(principal, cuit) {

        const row = await internals.visibleTo(knex, principal).select(internals.columns).where('c.cuit', cuit).first();
        return row ? internals.toRecord(row) : null;
    },

    async findInAccount(accountId, cuit) {

        const row = await knex('clients as c').select(internals.columns).where({ 'c.account_id': accountId, 'c.cuit': cuit }).first();
        return row ? internals.toRecord(row) : null;
    },

    async listVisible(principal, filters, page) {

        const query = internals.visibleTo(knex, principal);
        if (filters.monotributista !== null) {
            query.where('c.monotributista', filters.monotributista);
        }

        if (filters.autonomo !== null) {
            query.where('c.autonomo', filters.autonomo);
        }

        if (filters.categoria !== null) {
            query.where('c.categoria', filters.categoria);
        }

        if (filters.etiquetas !== null) {
            // Several tags combine with OR; names match ignoring case and accents.
            const keys = filters.etiquetas.map(sortKey);
            query.whereExists(knex('client_tags as ct')
                .join('tags as t', 't.id', 'ct.tag_id')
                .select(knex.raw('1'))
                .whereRaw('ct.client_id = c.id')
                .whereIn('t.sort_name', keys));
        }

        const [countRow, rows] = await Promise.all([
            query.clone().count({ count: '*' }).first(),
            query.clone()
                .select(internals.columns)
                .select('s.synced_at as registry_synced_at')
                .leftJoin('sync_states as s', (join) => join.on('s.client_id', 'c.id').andOnVal('s.system', 'registry'))
                .orderBy([{ column: 'c.sort_name' }, { column: 'c.id' }])
                .limit(page.limit)
                .offset(page.offset)
        ]);

        const ids = rows.map((row: Record<string, unknown>) => toNumber(row.id));
        const tags = new Map<number, string[]>();
        if (ids.length) {
            const tagRows = await knex('client_tags as ct')
                .join('tags as t', 't.id', 'ct.tag_id')
                .select('ct.client_id', 't.name')
                .whereIn('ct.client_id', ids)
                .orderBy([{ column: 't.sort_name' }, { column: 't.id' }]);

            for (const row of tagRows) {
                const list = tags.get(toNumber(row.client_id)) ?? [];
                list.push(String(row.name));
                tags.set(toNumber(row.client_id), list);
            }
        }

        const items: ClientListRow[] = rows.map((row: Record<string, unknown>) => ({
            ...internals.toRecord(row),
            etiquetas: tags.get(toNumber(row.id)) ?? [],
            registrySyncedAt: toNullableNumber(row.registry_synced_at)
        }));

        return { items, total: countOf(countRow) };
    }
});
