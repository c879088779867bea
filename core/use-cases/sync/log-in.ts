import { arcaDay, nextArcaDayStart } from '../../domain/arca-day.js';
import type { Cuit } from '../../domain/cuit.js';
import { hasValidCheckDigit } from '../../domain/cuit.js';
import type { HealthState } from '../../domain/health.js';
import { stateOfFailure } from '../../domain/health.js';
import { sameKey } from '../../domain/key-identity.js';
import type { LoginWait } from '../../domain/login-ledger.js';
import { isKeyFailureKind } from '../../domain/login-ledger.js';
import { messages } from '../../domain/messages.js';
import type { AuthorityFailureKind, KeySession } from '../../ports/authority-client.js';
import type { SyncTarget } from '../../ports/job-queue.js';
import type { SyncDeps } from './deps.js';
import type { KeyLease, KeySessions } from './key-sessions.js';
import { KeyDayOver } from './key-login.js';
import type { SyncFailure } from './sync-failure.js';
import { describeFailure } from './sync-failure.js';

// The one place a sync logs in: whose key (the client's own, or its representative's), a CUIT
// ARCA could not have issued never sent, the sealed key opened and known by its identity (the
// keyed hash of its plaintext: core/domain/key-identity.ts), the key refused before and
// unchanged since, the key's session of the day taken from the sessions (by identity: another
// account's key for the same CUIT never serves this one), and a refused key remembered so that
// no taxpayer it reaches tries it again until it changes.

export interface LoginKey {
    loginClientId: number;
    loginCuit: Cuit;
    keyId: string;
}

export interface SyncLogin {
    key: LoginKey;
    password: string;
    lease: KeyLease;
}

// Why a login was not even tried, no password posted: the key refused before and unchanged
// since (until a new one is stored), or the ledger's rule (core/domain/login-ledger.ts): a
// failure ended the key's day (kind), its logins are used up, or an unproven key waits.
export interface LoginGate {
    reason: LoginWait;
    kind: string | null;
}

// Why no session: failed (nothing to log in with, or the authority failed) or key_refused.
export interface LoginRefusal {
    outcome: 'failed' | 'key_refused';
    message: string;
    state: HealthState;
    retry: boolean;
    retryAfterMs: number;
    kind?: AuthorityFailureKind | null;
    gate?: LoginGate;
}

const internals = {
    refusal: (message: string, state: HealthState): LoginRefusal => ({ outcome: 'failed', message, state, retry: false, retryAfterMs: 0 })
};

// A key failure (refused, blocked, expired) met at login or in the middle of a sync: the key
// is not tried again until a new one is stored.
export const refuseKey = async (
    deps: Pick<SyncDeps, 'syncTargets' | 'clock'>,
    key: LoginKey,
    failure: Pick<SyncFailure, 'message'> & { kind: AuthorityFailureKind }
): Promise<LoginRefusal> => {

    await deps.syncTargets.recordKeyFailure(key.loginClientId, key.keyId, failure.kind, deps.clock.now().getTime());
    return {
        outcome: 'key_refused',
        message: `${failure.message} ${messages.sync.keyNotRetried}`,
        state: stateOfFailure(failure.kind),
        retry: false,
        retryAfterMs: 0
    };
};

export const logInForSync = async (deps: SyncDeps, target: SyncTarget, sessions: KeySessions): Promise<SyncLogin | { refused: LoginRefusal }> => {

    if (target.loginCuit === null) {
        return { refused: internals.refusal(messages.sync.noRepresentative, 'sin_clave') };
    }

    if (target.sealedKey === null || target.loginClientId === null) {
        return { refused: internals.refusal(messages.sync.noKey, 'sin_clave') };
    }

    if (deps.checkDigits && (!hasValidCheckDigit(target.cuit) || !hasValidCheckDigit(target.loginCuit))) {
        return { refused: internals.refusal(messages.sync.invalidCuit(hasValidCheckDigit(target.cuit) ? target.loginCuit : target.cuit), 'cuit_invalido') };
    }

    let password: string;
    try {
        password = deps.secretBox.open(target.sealedKey);
    }
    catch {
        return { refused: internals.refusal(messages.sync.unreadableKey, 'error') };
    }

    const key: LoginKey = { loginClientId: target.loginClientId, loginCuit: target.loginCuit, keyId: await deps.keyIdentity.of(target.loginCuit, password) };
    if (target.keyFailure && sameKey(target.keyFailure.fingerprint, key.keyId)) {
        const kind = target.keyFailure.kind as AuthorityFailureKind;
        return { refused: {
            outcome: 'key_refused',
            message: `${messages.authority[kind] ?? messages.sync.internal} ${messages.sync.keyNotRetried}`,
            state: stateOfFailure(kind),
            retry: false,
            retryAfterMs: 0,
            gate: { reason: 'key_refused', kind }
        } };
    }

    try {
        const lease = await sessions.acquire({ loginCuit: key.loginCuit, keyId: key.keyId, accountId: target.accountId, password });
        return { key, password, lease };
    }
    catch (err) {
        // ARCA refused this very key before (another account stored the same plaintext): it is
        // this account's refusal too, and never posted again.
        if (err instanceof KeyDayOver && err.reason === 'key_refused' && isKeyFailureKind(err.kind)) {
            const refusal = await refuseKey(deps, key, { kind: err.kind, message: messages.authority[err.kind] });
            return { refused: { ...refusal, kind: err.kind, gate: { reason: 'key_refused', kind: err.kind } } };
        }

        const failure = describeFailure(err, password);
        if (failure.kind && isKeyFailureKind(failure.kind)) {
            return { refused: { ...await refuseKey(deps, key, { ...failure, kind: failure.kind }), kind: failure.kind } };
        }

        const gate: LoginGate | null = err instanceof KeyDayOver ? { reason: err.reason, kind: err.kind } : null;
        return { refused: {
            outcome: 'failed',
            message: failure.message,
            state: failure.state,
            retry: failure.retry,
            retryAfterMs: failure.retryAfterMs,
            kind: failure.kind,
            ...(gate ? { gate } : {})
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
    return { notTried: { ...gate, keyCuit: target.loginCuit, day: arcaDay(now), retryAt: gate.reason === 'key_refused' || gate.reason === 'unproven_week' ? null : nextArcaDayStart(now) } };
};
