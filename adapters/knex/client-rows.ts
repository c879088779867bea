import type { ClientRecord, ClientType } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { toNullableBoolean, toNullableNumber, toNumber } from './column-values.js';
import { clientListColumns } from './list-queries.js';

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
