import type { HealthState } from '../../domain/health.js';
import { stateOfFailure } from '../../domain/health.js';
import { isWait } from '../../domain/login-ledger.js';
import { messages } from '../../domain/messages.js';
import type { AuthorityFailureKind } from '../../ports/authority-client.js';
import { AuthorityFailure } from '../../ports/authority-client.js';
import { KeyDayOver } from './key-login.js';
import { failurePolicy } from './sync-policy.js';

// What a failure during a sync means: the Spanish text recorded for staff (with the
// authority's detail, never a secret), and whether and when the job comes back.
export interface SyncFailure {
    message: string;
    // The state the failure names (core/domain/health.ts), recorded beside the message.
    state: HealthState;
    retry: boolean;
    retryAfterMs: number;
    kind: AuthorityFailureKind | null;
}

const internals = {
    detailMax: 200
};

export const describeFailure = (err: unknown, password: string | null): SyncFailure => {

    if (err instanceof AuthorityFailure) {
        let detail = err.detail;
        if (password) {
            detail = detail.split(password).join('***');
        }

        const text = messages.authority[err.kind];
        detail = detail.replace(/\s+/g, ' ').trim().slice(0, internals.detailMax);
        const policy = failurePolicy.of(err.kind, err.touchedPassword);
        return { message: detail ? `${text} (${detail})` : text, state: stateOfFailure(err.kind), retry: policy.retry, retryAfterMs: policy.minDelayMs, kind: err.kind };
    }

    if (err instanceof KeyDayOver) {
        // A spent day or an unproven key's turn passes by itself: the key waits, it did not fail.
        const state: HealthState = isWait(err.reason) ? 'espera_arca' : err.kind === null ? 'error' : stateOfFailure(err.kind);
        return { message: err.message, state, retry: true, retryAfterMs: err.retryAfterMs, kind: null };
    }

    // Only the error's code (e.g. ER_LOCK_DEADLOCK): a database message can quote values.
    const code = (err as { code?: unknown } | null)?.code;
    return {
        message: typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? `${messages.sync.internal} (${code})` : messages.sync.internal,
        state: 'error',
        retry: true,
        retryAfterMs: 0,
        kind: null
    };
};
