// Fast path: a client's reads as fixed SQL (repositories/clients.ts): the visible client every
// request about a CUIT runs, and the tags of a list's page. Earns it: the figure of statements.ts.

import { clientColumns } from '../client-rows.js';
import { placeholders } from './statements.js';

const columns = clientColumns().join(', ');

// Bindings: the account, then the CUITs.
export const clientsByCuitSql = (cuits: number): string => `select ${columns} from clients c where c.account_id = ? and c.cuit in (${placeholders(cuits)})`;

// Bindings: the visible rule's, then the CUIT.
export const visibleClientSql = (visible: string): string => `select ${columns} from clients c where ${visible} and c.cuit = ? limit 1`;

// Bindings: the clients' ids.
export const clientTagsSql = (ids: number): string => 'select ct.client_id, t.name from client_tags ct inner join tags t on t.id = ct.tag_id ' +
    `where ct.client_id in (${placeholders(ids)}) order by t.sort_name asc, t.id asc`;
