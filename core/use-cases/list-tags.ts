import type { Principal } from '../domain/access.js';
import type { Pagination } from '../domain/pagination.js';
import type { Tag } from '../domain/tag.js';
import type { ReadRequest } from '../domain/read-request.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import type { Ports } from '../ports/index.js';
import { cachedRead } from './cached-read.js';

export interface TagsResult {
    data: Tag[];
    pagination: Pagination;
}

export const listTagsParameters = ['limit', 'offset'] as const;

// docs/api.md, Reads: the account's tags by name; total counts them all.
export const listTags = async (deps: Pick<Ports, 'tags' | 'readCache'>, principal: Principal, input: ReadRequest): Promise<TagsResult> => {

    const { limit, offset } = parseReadRequest(input, listTagsParameters);
    const page = { limit, offset };
    return cachedRead(deps.readCache, `tags:${principal.accountId}:${page.limit}:${page.offset}`, principal.dataVersion, async () => {

        const result = await deps.tags.list(principal.accountId, page);
        return { data: result.items, pagination: { ...page, total: result.total } };
    });
};
