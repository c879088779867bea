import type { Cuit } from '../../domain/cuit.js';
import type { HealthState } from '../../domain/health.js';
import type { SyncSystem } from '../../domain/sync-system.js';
import type { AuthorityFailureKind } from '../../ports/authority-client.js';
import type { SyncTarget } from '../../ports/job-queue.js';
import type { SyncDeps } from './deps.js';

interface SystemOutcome {
    system: SyncSystem;
    ok: boolean;
    error: string | null;
    records: number;
    // Stored, with something left unread (ARCA's meter): why.
    notice?: string;
}

// synced: every system stored; partial: some failed; failed: nothing could be fetched;
// key_refused: the key was refused (now or before, unchanged since); gone: the client was
// deleted; interrupted: stopped before the end (shutdown or lost lease), nothing half-written.
type SyncOutcome = 'synced' | 'partial' | 'failed' | 'key_refused' | 'gone' | 'interrupted';

export interface SyncClientResult {
    clientId: number;
    cuit: Cuit | null;
    outcome: SyncOutcome;
    // Worth running again soon (a transient failure of the authority or of the service).
    retry: boolean;
    // The earliest a retry may come (a block, a failure after the password was posted).
    retryAfterMs: number;
    error: string | null;
    // The key waits its turn at ARCA (its day's logins are spent, or an unproven key waits):
    // nothing failed, the job comes back by itself (state espera_arca).
    waiting?: boolean;
    systems: SystemOutcome[];
    invoices: number;
}

// What ends a sync early, or why a system failed.
interface SyncEnd {
    outcome: SyncOutcome;
    message: string;
    state: HealthState;
    retry: boolean;
    retryAfterMs: number;
}

// The result of one CUIT's sync as it is built, system by system: each failure is recorded in
// the client's sync state as it happens (false when the client was deleted meanwhile).
export interface SyncReport {
    stored(system: SyncSystem, records: number, invoices: boolean, notice?: string): void;
    failed(system: SyncSystem, failure: Omit<SyncEnd, 'outcome'> & { kind: AuthorityFailureKind | null }): Promise<boolean>;
    // A system failed because the key's session ended (the portal's).
    sessionExpired(): boolean;
    // The same error recorded for every system left; the sync ends with `end.outcome`.
    failRest(systems: readonly SyncSystem[], end: SyncEnd): Promise<SyncClientResult>;
    // outcome: how it ended early; without it, by the systems stored and failed.
    finish(outcome?: SyncOutcome): SyncClientResult;
}

export const goneResult = (clientId: number): SyncClientResult => ({
    clientId,
    cuit: null,
    outcome: 'gone',
    retry: false,
    retryAfterMs: 0,
    error: null,
    systems: [],
    invoices: 0
});

export const createSyncReport = (deps: Pick<SyncDeps, 'syncStates' | 'clock'>, target: SyncTarget): SyncReport => {

    const result: SyncClientResult = {
        clientId: target.id,
        cuit: target.cuit,
        outcome: 'failed',
        retry: false,
        retryAfterMs: 0,
        error: null,
        systems: [],
        invoices: 0
    };
    let expired = false;
    const record = (system: SyncSystem, message: string, state: HealthState) => deps.syncStates.recordFailure(
        target.id, system, message, deps.clock.now().getTime(), state
    );

    const report: SyncReport = {
        stored(system, records, invoices, notice) {

            result.systems.push({ system, ok: true, error: null, records, ...(notice ? { notice } : {}) });
            result.invoices += invoices ? records : 0;
        },

        async failed(system, failure) {

            if (!await record(system, failure.message, failure.state)) {
                return false;
            }

            result.systems.push({ system, ok: false, error: failure.message, records: 0 });
            expired ||= failure.kind === 'session_expired';
            result.retry ||= failure.retry;
            result.retryAfterMs = Math.max(result.retryAfterMs, failure.retryAfterMs);
            result.error ??= failure.message;
            return true;
        },

        sessionExpired: () => expired,

        async failRest(systems, end) {

            for (const system of systems) {
                if (!await record(system, end.message, end.state)) {
                    return report.finish('gone');
                }

                result.systems.push({ system, ok: false, error: end.message, records: 0 });
            }

            result.retry = end.retry;
            result.retryAfterMs = Math.max(result.retryAfterMs, end.retryAfterMs);
            result.error = end.message;
            result.waiting = end.state === 'espera_arca';
            return report.finish(end.outcome);
        },

        finish(outcome) {

            const failed = result.systems.filter((entry) => !entry.ok).length;
            const byCount = failed === 0 ? 'synced' : failed === result.systems.length ? 'failed' : 'partial';
            return { ...result, systems: [...result.systems], outcome: outcome ?? byCount };
        }
    };

    return report;
};
