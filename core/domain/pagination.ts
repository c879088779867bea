// docs/api.md, Reads

export interface PageRequest {
    limit: number;
    offset: number;
}

export interface Pagination {
    limit: number;
    offset: number;
    total: number;
}

export const pageDefaults: PageRequest = { limit: 50, offset: 0 };
export const maxLimit = 100;

export interface Page<T> {
    items: T[];
    total: number;
}
