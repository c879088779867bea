// Fast path: a CUIT's small reads as fixed SQL, on every per-CUIT request (its sync dates, its
// SCT blocks). Earns it: the figure of statements.ts.

// Bindings: the client, the system.
export const syncedAtSql = 'select s.synced_at from sync_states s where s.client_id = ? and s.system = ? limit 1';

// Binding: the client.
export const syncedAtBySystemSql = 'select s.system, s.synced_at from sync_states s where s.client_id = ? and s.synced_at is not null';

// Binding: the client.
export const sctBlockSql = (table: string): string => `select t.* from ${table} t where t.client_id = ? order by t.position asc`;
