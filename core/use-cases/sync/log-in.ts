import { arcaDay, nextArcaDayStart } from '../../domain/arca-day.js';
import type { Cuit } from '../../domain/cuit.js';
import { messages } from '../../domain/messages.js';
import { keyFingerprint } from '../../domain/sealed-key.js';
import type { AuthorityFailureKind, KeySession } from '../../ports/authority-client.js';
import type { SyncTarget } from '../../ports/job-queue.js';
import type { SyncDeps } from './deps.js';
import type { KeyLease, KeySessions } from './key-sessions.js';
import { KeyDayOver } from './key-sessions.js';
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

// Why a login was not even tried, no password posted: the key refused before and unchanged
// since (until staff store a new one), or the ledger's gate closed for the ARCA day: a failure
// ended the key's day (kind), or its logins are used up (docs/scaling.md).
export interface LoginGate {
    reason: 'key_refused' | 'day_ended' | 'logins_used';
    kind: string | null;
}

// Why no session: failed (nothing to log in with, or the authority failed) or key_refused.
export interface LoginRefusal {
    outcome: 'failed' | 'key_refused';
    message: string;
    retry: boolean;
    retryAfterMs: number;
    kind?: AuthorityFailureKind | null;
    gate?: LoginGate;
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
        return { refused: {
            outcome: 'key_refused',
            message: `${messages.authority[kind] ?? messages.sync.internal} ${messages.sync.keyNotRetried}`,
            retry: false,
            retryAfterMs: 0,
            gate: { reason: 'key_refused', kind }
        } };
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
            return { refused: { ...await refuseKey(deps, key, { ...failure, kind: failure.kind }), kind: failure.kind } };
        }

        const gate: LoginGate | null = err instanceof KeyDayOver ? { reason: err.kind === null ? 'logins_used' : 'day_ended', kind: err.kind } : null;
        return { refused: {
            outcome: 'failed', message: failure.message, retry: failure.retry, retryAfterMs: failure.retryAfterMs, kind: failure.kind, ...(gate ? { gate } : {})
        } };
    }
};

// `arcasync authority probe`'s login: a sync login in every way that matters to the authority
// (the same key checks, the fleet's ledger gate and pacing, its start, post and any failure
// that ends the day counted), since the promise of one login per key and day holds whoever
// logs in (docs/scaling.md). The lease is the caller's to release. not_tried: the gate refused, no password was posted; retryAt:
// when the key may log in again (the next ARCA day), null until staff store a new key.
export type ProbeNotTried = LoginGate & { keyCuit: Cuit | null; day: string; retryAt: number | null };

export type ProbeLogin = { session: KeySession; lease: KeyLease } | { failed: string } | { notTried: ProbeNotTried };

export const logInForProbe = async (deps: SyncDeps, target: SyncTarget, sessions: KeySessions): Promise<ProbeLogin> => {

    const login = await logInForSync(deps, target, sessions);
    if (!('refused' in login)) {
        return { session: login.lease.session, lease: login.lease };
    }

    const { gate, kind, outcome, message } = login.refused;
    if (!gate) {
        return { failed: `${kind ?? outcome}: ${message}` };
    }

    const now = deps.clock.now().getTime();
    return { notTried: { ...gate, keyCuit: target.loginCuit, day: arcaDay(now), retryAt: gate.reason === 'key_refused' ? null : nextArcaDayStart(now) } };
};
