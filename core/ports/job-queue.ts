import type { ClientType } from '../domain/client.js';
import type { Cuit } from '../domain/cuit.js';
import type { SyncSystem } from '../domain/sync-system.js';
import type { Timestamp } from '../domain/time.js';

// Synchronization jobs live in the database (docs/scaling.md). A worker claims a job with a
// lease; while it holds the lease no other worker runs a job of the same client, nor of the
// same login key; a lease that is not renewed expires and the job is retaken. A claim also
// gives the worker the hold of the job's key: while the hold lasts, that key's other jobs go
// to that worker alone (its session of the day), whichever worker asks.

// first: created with the client; daily: the scheduler; manual: `arcasync sync --cuit/--all`;
// forced: staff's full resync (`arcasync resync`).
export type SyncReason = 'first' | 'daily' | 'manual' | 'forced';

export interface SyncJob {
    id: number;
    clientId: number;
    reason: SyncReason;
    attempts: number;                  // including the current one
    createdAt: Timestamp;
    // The identity of the client's key (its own, or its representative's), null without one.
    keyId: string | null;
}

interface ClaimOptions {
    owner: string;
    now: Timestamp;
    leaseMs: number;
    // Only jobs of these clients (a `sync --cuit` run); any client when absent.
    clientIds?: readonly number[];
}

// A client due for its daily sync, as the window plans it.
export interface DueClient {
    clientId: number;
    accountId: number;
    keyId: string | null;
}

export interface JobCounts {
    pending: number;
    due: number;                       // pending and due by `now`
    running: number;
}

export interface JobQueue {
    // A pending job for the client unless one is already pending; a 'forced' request turns the
    // pending one into a forced one due now, and a 'manual' one (staff's sync) makes it due now
    // even while it waits out a retry's backoff (what needs a person is refused at login, by the
    // key's failure or the day's ledger, not here). Returns the pending job's id.
    enqueue(clientId: number, reason: SyncReason, now: Timestamp): Promise<number>;
    // One 'daily' job for every client with no pending or running job and no job created or
    // due since `dayStart` (the ARCA day's), each at the time `plan` gives it. One scheduler at
    // a time. Returns how many were enqueued.
    enqueueDaily(input: { dayStart: Timestamp; now: Timestamp; plan: (due: DueClient[]) => { clientId: number; runAfter: Timestamp }[] }): Promise<number>;
    claim(options: ClaimOptions): Promise<SyncJob | null>;
    // false when the lease is lost: the job was retaken, cancelled, or its client deleted.
    renew(job: SyncJob, owner: string, now: Timestamp, leaseMs: number): Promise<boolean>;
    complete(job: SyncJob, owner: string, now: Timestamp): Promise<boolean>;
    // Back to pending, due at `runAfter`, keeping the error.
    retry(job: SyncJob, owner: string, error: string, runAfter: Timestamp): Promise<boolean>;
    fail(job: SyncJob, owner: string, error: string, now: Timestamp): Promise<boolean>;
    // A worker stopping gracefully gives the job back at once; the attempt does not count.
    release(job: SyncJob, owner: string, now: Timestamp): Promise<boolean>;
    counts(clientIds: readonly number[] | undefined, now: Timestamp): Promise<JobCounts>;
    // A job of the key is due and waiting (its session should stay open for it).
    keyHasDue(keyId: string, now: Timestamp): Promise<boolean>;
    // Extends every key hold of this worker that has not expired (while its key sessions live).
    renewKeyHolds(owner: string, now: Timestamp, leaseMs: number): Promise<number>;
    // The worker closed the key's session: any worker may take its jobs.
    releaseKeyHold(keyId: string, owner: string): Promise<void>;
    // Deletes the jobs that finished (done or failed) before `finishedBefore`. Returns how many.
    prune(finishedBefore: Timestamp): Promise<number>;
}

// What the sync needs to know about a client, read at the start of each run.
export interface SyncTarget {
    id: number;
    accountId: number;
    cuit: Cuit;
    tipo: ClientType;
    // Whose key logs in: the client itself, or a legal entity's representative.
    loginClientId: number | null;
    loginCuit: Cuit | null;
    sealedKey: string | null;
    // The key of the login client was refused (rejected, blocked, expired) while it was this
    // exact sealed value; it is not tried again until it changes.
    keyFailure: { fingerprint: string; kind: string; at: Timestamp } | null;
    // The registry called it a monotributista when it was read (its cap is checked after a
    // save of its issued invoices).
    monotributista: boolean;
}

export interface SyncTargetRepository {
    find(clientId: number): Promise<SyncTarget | null>;
    findByCuit(cuit: Cuit): Promise<{ id: number; accountId: number }[]>;
    listIds(): Promise<number[]>;
    recordKeyFailure(loginClientId: number, fingerprint: string, kind: string, at: Timestamp): Promise<void>;
    // Per system, over every client: how many synchronized, how many whose last attempt failed.
    summary(): Promise<SyncSummary>;
}

export interface SyncSummary {
    clients: number;
    systems: { system: SyncSystem; synced: number; failing: number; oldestSyncedAt: Timestamp | null }[];
}
