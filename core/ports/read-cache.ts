// What read endpoints answered, kept in memory between requests. Each entry is stored under
// the data version it was read at (Principal.dataVersion, ClientRecord.dataVersion) and is
// served only to a request that reads the same version, so any change committed meanwhile,
// by any process, is never hidden. A cache may keep only some answers (the memory one keeps an
// answer from its second request on). Values kept are frozen: callers share them and must
// not mutate.
export interface ReadCache {
    get<T>(key: string, version: number): T | undefined;
    set<T>(key: string, version: number, value: T): T;
}
