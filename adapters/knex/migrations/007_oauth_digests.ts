import type { Knex } from 'knex';
import { credentialKinds, storedEntryId } from '../../../core/domain/oauth-entry.js';

// OAuth entries stop holding credentials a database dump could use:
// - every entry's id is stored as its SHA-256 digest (the id of a token is the token), and
//   tokens lose the copy of their id in the payload (`jti`); existing rows are rewritten so
//   tokens issued before keep working;
// - the provider's keys (cookie signing, the JSON Web Key Set) are sealed from now on. A
//   migration has no key to seal with, so the unsealed ones are deleted instead: the next
//   start creates sealed ones. The price is small: consent pages open at that moment must be
//   started again (their cookies were signed with the old keys); access and refresh tokens
//   are opaque and do not depend on those keys.
// Data only, so that on MySQL too it runs in one transaction (DDL would commit it halfway).

export const up = async (knex: Knex): Promise<void> => {

    await knex('oauth_entries').where('kind', 'ServerSecret').delete();
    await knex('oauth_entries').where('expires_at', '<=', Date.now()).delete();
    const rows = await knex('oauth_entries').select('kind', 'id', 'payload');
    for (const row of rows) {
        const kind = String(row.kind);
        const id = String(row.id);
        const payload = JSON.parse(String(row.payload)) as Record<string, unknown>;
        if (credentialKinds.has(kind)) {
            delete payload.jti;
        }

        await knex('oauth_entries').where({ kind, id }).update({ id: storedEntryId(id), payload: JSON.stringify(payload) });
    }
};

export const down = async (knex: Knex): Promise<void> => {

    // Digests cannot be turned back into tokens: the entries go, people consent again.
    await knex('oauth_entries').delete();
};
