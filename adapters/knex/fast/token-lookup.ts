// Fast path: the API token's lookup as fixed SQL, every API request. Earns it: the figure of
// statements.ts (the authenticated hit ~160 -> ~105 µs of CPU, 496f19d); bench/lean.ts times it.

import { assignedToMember, clientColumns } from '../client-rows.js';
import { principalSelect } from '../principal.js';
import { placeholders, sqlByShape } from './statements.js';

// Bindings: the CUITs asked about (if any), then the token digests. One row per token, or per
// token and named client it sees (client columns prefixed `named_`, null when none). Every
// request runs it.
export const tokenPrincipalsSql = sqlByShape((hashes: number, cuits: number): string => {

    const token = ['t.token_hash', 't.id as token_id', 't.last_used_at as token_last_used_at'];
    const live = `where t.token_hash in (${placeholders(hashes)}) and t.revoked_at is null`;
    return !cuits
        ? `${principalSelect(token)} inner join tokens t on t.user_id = u.id ${live}`
        : `${principalSelect([...token, ...clientColumns('named_')])} inner join tokens t on t.user_id = u.id ` +
            `left join clients c on c.account_id = u.account_id and c.cuit in (${placeholders(cuits)}) and (u.role = 'owner' or ${assignedToMember('u.id')}) ${live}`;
});
