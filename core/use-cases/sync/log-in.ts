import type { Cuit } from '../../domain/cuit.js';
import { messages } from '../../domain/messages.js';
import { keyFingerprint } from '../../domain/sealed-key.js';
import type { AuthorityFailureKind } from '../../ports/authority-client.js';
import type { SyncTarget } from '../../ports/job-queue.js';
import type { SyncDeps } from './deps.js';
import type { KeyLease, KeySessions } from './key-sessions.js';
import type { SyncFailure } from './sync-failure.js';
import { describeFailure } from './sync-failure.js';
import { isKeyFailure } from './sync-policy.js';

// The one place a sync logs in: whose key (the client's own, or its representative's), the
// key refused before and unchanged since, the sealed key opened, the key's session of the day
// taken from the sessions, and a refused key remembered so that no taxpayer it reaches tries it
// again until it changes.

export interface LoginKey {
    loginClientId: number;
    loginCuit: Cuit;
    fingerprint: string;
}

export interface SyncLogin {
    key: LoginKey;
    password: string;
    lease: KeyLease;
}

// Why no session: failed (nothing to log in with, or the authority failed) or key_refused.
export interface LoginRefusal {
    outcome: 'failed' | 'key_refused';
    message: string;
    retry: boolean;
    retryAfterMs: number;
}

const internals = {
    refusal: (message: string): LoginRefusal => ({ outcome: 'failed', message, retry: false, retryAfterMs: 0 })
};

// A key failure (refused, blocked, expired) met at login or in the middle of a sync: the key
// is not tried again until staff store a new one.
export const refuseKey = async (
    deps: Pick<SyncDeps, 'syncTargets' | 'clock'>,
    key: LoginKey,
    failure: SyncFailure & { kind: AuthorityFailureKind }
): Promise<LoginRefusal> => {

    await deps.syncTargets.recordKeyFailure(key.loginClientId, key.fingerprint, failure.kind, deps.clock.now().getTime());
    return { outcome: 'key_refused', message: `${failure.message} ${messages.sync.keyNotRetried}`, retry: false, retryAfterMs: 0 };
};

export const logInForSync = async (deps: SyncDeps, target: SyncTarget, sessions: KeySessions): Promise<SyncLogin | { refused: LoginRefusal }> => {

    if (target.loginCuit === null) {
        return { refused: internals.refusal(messages.sync.noRepresentative) };
    }

    if (target.sealedKey === null || target.loginClientId === null) {
        return { refused: internals.refusal(messages.sync.noKey) };
    }

    const key: LoginKey = { loginClientId: target.loginClientId, loginCuit: target.loginCuit, fingerprint: keyFingerprint(target.sealedKey) };
    if (target.keyFailure && target.keyFailure.fingerprint === key.fingerprint) {
        const kind = target.keyFailure.kind as AuthorityFailureKind;
        return { refused: { outcome: 'key_refused', message: `${messages.authority[kind] ?? messages.sync.internal} ${messages.sync.keyNotRetried}`, retry: false, retryAfterMs: 0 } };
    }

    let password: string;
    try {
        password = deps.secretBox.open(target.sealedKey);
    }
    catch {
        return { refused: internals.refusal(messages.sync.unreadableKey) };
    }

    try {
        const lease = await sessions.acquire({ loginCuit: key.loginCuit, fingerprint: key.fingerprint, password });
        return { key, password, lease };
    }
    catch (err) {
        const failure = describeFailure(err, password);
        if (failure.kind && isKeyFailure(failure.kind)) {
            return { refused: await refuseKey(deps, key, { ...failure, kind: failure.kind }) };
        }

        return { refused: { outcome: 'failed', message: failure.message, retry: failure.retry, retryAfterMs: failure.retryAfterMs } };
    }
};
