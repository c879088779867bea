import { messages } from '../../domain/messages.js';
import type { AuthorityFailureKind } from '../../ports/authority-client.js';
import { AuthorityFailure } from '../../ports/authority-client.js';
import { KeyDayOver } from './key-sessions.js';
import { failurePolicy } from './sync-policy.js';

// What a failure during a sync means: the Spanish text recorded for staff (with the
// authority's detail, never a secret), and whether and when the job comes back.
export interface SyncFailure {
    message: string;
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
        return { message: detail ? `${text} (${detail})` : text, retry: policy.retry, retryAfterMs: policy.minDelayMs, kind: err.kind };
    }

    if (err instanceof KeyDayOver) {
        return { message: err.message, retry: true, retryAfterMs: err.retryAfterMs, kind: null };
    }

    // Only the error's code (e.g. ER_LOCK_DEADLOCK): a database message can quote values.
    const code = (err as { code?: unknown } | null)?.code;
    return { message: typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? `${messages.sync.internal} (${code})` : messages.sync.internal, retry: true, retryAfterMs: 0, kind: null };
};
