// The database as the front ends see it when it fails: whether it can be reached (the health
// check), and whether an error means it is away for now (an outage, a lock held elsewhere),
// which every front end says as "not available, retry" instead of an internal error.
type DatabaseFailure =
    | { kind: 'unavailable'; retryAfter: number }   // cannot be reached: refused, unknown host, gone
    | { kind: 'busy'; retryAfter: number };         // reached, but another holds what it needs

export interface DatabaseStatus {
    // Resolves when the database answers within `timeoutMs`; rejects otherwise.
    ping(timeoutMs: number): Promise<void>;
    failureOf(err: unknown): DatabaseFailure | null;
}
