// Fast path: the panel's session lookup as fixed SQL. Earns it (2026-11-28, on d097129, the
// builder's same statement A/B in one process, medians of 12 interleaved blocks of 400 calls,
// machine loaded ±50%): SQLite 68 µs of the event loop against 796 µs through the builder
// (which prepares it anew on the pool's one connection; fixed SQL reads in its own thread),
// MariaDB 220 against 305 µs. npm run bench:panel -- --db sqlite, 3 rounds A B: each client
// tab's median slower through the builder in every pair (cliente, estado 15.9 / 16.0 / 7.3 ms
// against 25.5 / 17.1 / 8.4 ms).

import { assignedToMember, clientColumns } from '../client-rows.js';
import { principalSelect } from '../principal.js';
import { sqlByShape } from './statements.js';

// Every panel page runs it, as every API request runs the token's (tokens.ts): the principal
// and, when the page names a client (`named` 1), that client beside it under the visible
// client's rule (null columns when the user does not manage it). Bindings: the CUIT asked
// about (if any), then the user's id.
export const sessionUserSql = sqlByShape((named: number): string => (!named
    ? `${principalSelect(['u.email'])} where u.id = ?`
    : `${principalSelect(['u.email', ...clientColumns('named_')])} left join clients c on c.account_id = u.account_id and c.cuit = ? ` +
        `and (u.role = 'owner' or ${assignedToMember('u.id')}) where u.id = ?`));
