import type { ClientQuery, ClientRecord, ClientType } from '../../core/domain/client.js';
import { sortKey } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { toNullableBoolean, toNullableNumber, toNumber } from './column-values.js';
import { clientListColumns } from './fast/list-queries.js';
import { placeholders } from './fast/statements.js';

// A client as its row (clients aliased `c`), and which clients a user sees: read by the
// client repository and, for the CUIT a request names, by the token lookup (tokens.ts) in the
// same statement as the principal.

// `c.x as <prefix>x` for every column, when the client's columns sit beside another table's.
export const clientColumns = (prefix = ''): string[] => (prefix ? clientListColumns.map((column) => `${column} as ${prefix}${column.slice(2)}`) : [...clientListColumns]);

export const toClientRecord = (row: Record<string, unknown>, prefix = ''): ClientRecord => {

    const value = (column: string): unknown => row[prefix + column];
    return {
        id: toNumber(value('id')),
        publicId: String(value('public_id')),
        accountId: toNumber(value('account_id')),
        cuit: String(value('cuit')) as Cuit,
        tipo: value('tipo') as ClientType,
        nombre: value('nombre') as string | null,
        apellido: value('apellido') as string | null,
        razonSocial: value('razon_social') as string | null,
        representativeId: toNullableNumber(value('representative_id')),
        displayName: String(value('display_name')),
        email: value('email') as string | null,
        telefono: value('telefono') as string | null,
        monotributista: toNullableBoolean(value('monotributista')),
        autonomo: toNullableBoolean(value('autonomo')),
        categoria: value('categoria') as string | null,
        dataVersion: toNumber(value('data_version'))
    };
};

// Owners manage the whole account; members only what is assigned to them. A member's
// condition on `c` (beside `c.account_id` being the member's account), given the SQL that
// names the member: a `?` placeholder or a column.
export const assignedToMember = (userId: string): string => `exists (select 1 from user_clients uc where uc.client_id = c.id and uc.user_id = ${userId})`;

const internals = {
    flag: (value: boolean): number => (value ? 1 : 0),

    // A LIKE pattern that finds `text` anywhere, its own %, _ and ! taken literally (`!` is
    // the escape named in the query: a backslash would read differently on MySQL and SQLite).
    contains: (text: string): string => `%${text.replace(/[!%_]/g, (found) => `!${found}`)}%`
};

// A list's filters as conditions on `c`, with their bindings, in the order written.
export const clientConditions = (query: ClientQuery): { where: string[]; bindings: (string | number)[] } => {

    const where: string[] = [];
    const bindings: (string | number)[] = [];
    if (query.monotributista !== null) {
        where.push('c.monotributista = ?');
        bindings.push(internals.flag(query.monotributista));
    }

    if (query.autonomo !== null) {
        where.push('c.autonomo = ?');
        bindings.push(internals.flag(query.autonomo));
    }

    if (query.categoria !== null) {
        where.push('c.categoria = ?');
        bindings.push(query.categoria);
    }

    if (query.etiquetas !== null) {
        // Several tags combine with OR; names match ignoring case and accents.
        const keys = query.etiquetas.map(sortKey);
        where.push(`exists (select 1 from client_tags ct inner join tags t on t.id = ct.tag_id where ct.client_id = c.id and t.sort_name in (${placeholders(keys.length)}))`);
        bindings.push(...keys);
    }

    if (query.search) {
        const { name, digits } = query.search;
        where.push(digits ? "(c.sort_name like ? escape '!' or c.cuit like ? escape '!')" : "c.sort_name like ? escape '!'");
        bindings.push(internals.contains(name), ...(digits ? [internals.contains(digits)] : []));
    }

    if (query.ids) {
        where.push(query.ids.length ? `c.id in (${placeholders(query.ids.length)})` : '1 = 0');
        bindings.push(...query.ids);
    }

    return { where, bindings };
};
