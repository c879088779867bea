import type { Timestamp } from './time.js';

// The login ledger's rule (docs/scaling.md, Keys, sessions and the ledger), the one place it is
// written: whether a key may post its password to ARCA now. ARCA counts a taxpayer's logins,
// so the day's allowance is per login CUIT; but several accounts may store a key for the same
// CUIT, and one account's wrong key must never use up, block or lock another's:
// - a key that logged in before (proven) counts only proven keys' logins against the day's
//   allowance: unproven keys' attempts never keep it from its login;
// - an account gets at most one unproven key tried a day (its re-login aside), only while the day's
//   allowance has room, and all accounts together at most `weeklyWrongCap` unproven posts that
//   did not log in, in any 7 days (ARCA locks a clave fiscal after repeated failures); past
//   that, unproven keys of the CUIT wait until a proven key logs in or staff clear it;
// - a key ARCA refused (wrong, blocked or expired) is never posted again, by any account;
// - a failure that ends a key's day (a CAPTCHA, a second factor, anything after the password)
//   ends it for that key only.

// The failures that say the key itself is wrong: it is not tried again until it changes.
const keyFailureKinds = ['rejected_key', 'blocked_key', 'expired_key'] as const;
export type KeyFailureKind = typeof keyFailureKinds[number];

export const isKeyFailureKind = (kind: string | null): kind is KeyFailureKind => keyFailureKinds.includes(kind as KeyFailureKind);

// One login of the login CUIT's ARCA day, as the ledger keeps it.
export interface LoginAttemptFact {
    keyId: string;
    accountId: number;
    proven: boolean;
    // 'ok', a failure kind, or null while it runs.
    outcome: string | null;
    endsDay: boolean;
    at: Timestamp;
}

export interface LoginFacts {
    // The login CUIT's logins of the ARCA day.
    today: readonly LoginAttemptFact[];
    // What ARCA said of this key before: that it logged in, or refused it.
    key: { provenAt: Timestamp | null; refused: { kind: string; at: Timestamp } | null };
    // Unproven posts of the CUIT over the last 7 days (since staff last cleared it) that did not
    // log in, those still running included.
    wrongPostsThisWeek: number;
}

export interface LoginRules {
    allowance: number;                 // logins per login CUIT and ARCA day (1 + re-logins)
    weeklyWrongCap: number;
}

export const defaultWeeklyWrongCap = 3;
export const weekMs = 7 * 24 * 60 * 60_000;

// Why a key may not log in now. key_refused: ARCA refused this very key (until a new one is
// stored); day_ended: a failure ended this key's day; logins_used: the day's logins are spent;
// unproven_today: this account's unproven key already had its try today; unproven_week: the
// CUIT's unproven posts of the week are spent (until a proven key logs in or staff clear it).
export type LoginWait = 'key_refused' | 'day_ended' | 'logins_used' | 'unproven_today' | 'unproven_week';

export type LoginDecision =
    | { allowed: true; proven: boolean; relogin: boolean }
    | { allowed: false; reason: LoginWait; kind: string | null; at: Timestamp | null };

export const decideLogin = (facts: LoginFacts, request: { keyId: string; accountId: number }, rules: LoginRules): LoginDecision => {

    const refuse = (reason: LoginWait, kind: string | null = null, at: Timestamp | null = null): LoginDecision => ({ allowed: false, reason, kind, at });
    if (facts.key.refused) {
        return refuse('key_refused', facts.key.refused.kind, facts.key.refused.at);
    }

    const ended = facts.today.find((attempt) => attempt.keyId === request.keyId && attempt.endsDay);
    if (ended) {
        return refuse('day_ended', ended.outcome, ended.at);
    }

    if (facts.key.provenAt !== null) {
        // Its own logins count (the first, made before it was proven, too) and every login that
        // went through; other keys' unproven tries do not.
        const provenLogins = facts.today.filter((attempt) => attempt.proven || attempt.keyId === request.keyId || attempt.outcome === 'ok').length;
        return provenLogins >= rules.allowance ? refuse('logins_used') : { allowed: true, proven: true, relogin: provenLogins > 0 };
    }

    // Another unproven key of this account tried today. The same key again is a re-login (a
    // worker that died mid-sync): a refusal or an ended day would have stopped it above.
    if (facts.today.some((attempt) => !attempt.proven && attempt.accountId === request.accountId && attempt.keyId !== request.keyId)) {
        return refuse('unproven_today');
    }

    if (facts.today.length >= rules.allowance) {
        return refuse('logins_used');
    }

    if (facts.wrongPostsThisWeek >= rules.weeklyWrongCap) {
        return refuse('unproven_week');
    }

    return { allowed: true, proven: false, relogin: facts.today.length > 0 };
};

// Waits that pass by themselves (the next ARCA day, or a proven key's login): not a failure of
// the key, whatever kept it.
export const isWait = (reason: LoginWait): boolean => reason !== 'key_refused' && reason !== 'day_ended';
