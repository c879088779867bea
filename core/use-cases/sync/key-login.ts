import { nextArcaDayStart } from '../../domain/arca-day.js';
import type { Cuit } from '../../domain/cuit.js';
import type { LoginRules, LoginWait } from '../../domain/login-ledger.js';
import { isKeyFailureKind } from '../../domain/login-ledger.js';
import { messages } from '../../domain/messages.js';
import type { Clock } from '../../ports/clock.js';
import type { AuthorityClient, KeySession } from '../../ports/authority-client.js';
import { AuthorityFailure } from '../../ports/authority-client.js';
import type { LoginLedger } from '../../ports/fleet.js';
import type { LoginPacer } from './login-pacing.js';
import { failurePolicy } from './sync-policy.js';

// One login of a key towards the authority, under the fleet's login ledger
// (core/domain/login-ledger.ts): every start, post and outcome is written there. The pool of
// the day's sessions that calls it is key-sessions.ts.

export interface SyncKey {
    loginCuit: Cuit;
    password: string;
    // The key's identity (core/domain/key-identity.ts), and the account whose sync logs in.
    keyId: string;
    accountId: number;
}

export interface KeyLoginDeps {
    authority: AuthorityClient;
    clock: Pick<Clock, 'now'>;
    ledger: LoginLedger | undefined;    // memory only (this process) when absent
    rules: LoginRules;
    pacer: LoginPacer | null | undefined;
    // Told of each login that reaches the authority.
    counted(): void;
}

// The key may not log in now (the ledger's rule, core/domain/login-ledger.ts): a failure ended
// its day or ARCA refused it before (kind), or it waits (its logins are used up, or it is an
// unproven key whose tries are spent). The job comes back when the ARCA day ends.
export class KeyDayOver extends Error {

    readonly reason: LoginWait;
    readonly kind: string | null;
    readonly retryAfterMs: number;

    constructor(reason: LoginWait, kind: string | null, retryAfterMs: number) {

        super(KeyDayOver.messageOf(reason, kind));
        this.name = 'KeyDayOver';
        this.reason = reason;
        this.kind = kind;
        this.retryAfterMs = retryAfterMs;
    }

    static messageOf(reason: LoginWait, kind: string | null): string {

        const what = kind === null ? null : messages.authority[kind as keyof typeof messages.authority] ?? kind;
        switch (reason) {
            case 'day_ended':
                return messages.sync.loginsEndedToday(what ?? messages.sync.internal);
            case 'key_refused':
                return `${what ?? messages.authority.rejected_key} ${messages.sync.keyNotRetried}`;
            case 'unproven_today':
                return messages.sync.unprovenToday;
            case 'unproven_week':
                return messages.sync.unprovenWeek;
            default:
                return messages.sync.loginsUsedToday;
        }
    }
}

// The key's login, if the ledger allows it: counted there before the password is posted,
// and what came of it written there after. Without a ledger (a probe of one process's own),
// the rule is not applied. Logins wait their turn in the pacer.
export const logInKey = async (deps: KeyLoginDeps, key: SyncKey, day: string, workLeft: () => number): Promise<KeySession> => {

    const { authority, clock, ledger, rules } = deps;

    const now = clock.now().getTime();
    const permit = ledger
        ? await ledger.begin({ keyCuit: key.loginCuit, keyId: key.keyId, accountId: key.accountId, day, at: now, rules })
        : { allowed: true as const, attempt: 0, proven: false, relogin: false };
    if (!permit.allowed) {
        throw new KeyDayOver(permit.reason, permit.ended?.kind ?? null, nextArcaDayStart(now) - now);
    }

    const attempt = permit.attempt;
    const turn = await deps.pacer?.start().catch(async (err: unknown) => {

        await ledger?.unposted(attempt);
        throw err;
    });
    deps.counted();
    try {
        const session = await authority.login({ loginCuit: key.loginCuit, password: key.password }, {
            workLeft,
            ...(turn ? { started: turn.started } : {})
        });
        await ledger?.passwordPosted(attempt, clock.now().getTime());
        await ledger?.finish(attempt, { kind: 'ok', endsDay: false, at: clock.now().getTime() });
        return session;
    }
    catch (err) {
        if (err instanceof AuthorityFailure) {
            const posted = err.touchedPassword || isKeyFailureKind(err.kind);
            if (posted) {
                await ledger?.passwordPosted(attempt, clock.now().getTime());
                const endsDay = failurePolicy.endsLoginsForDay(err.kind, err.touchedPassword);
                await ledger?.finish(attempt, { kind: err.kind, endsDay, at: clock.now().getTime() });
            }
            else if (failurePolicy.endsLoginsForDay(err.kind, false)) {
                // A CAPTCHA or a second factor met before the password: nothing posted,
                // but the key's day is over.
                await ledger?.finish(attempt, { kind: err.kind, endsDay: true, at: clock.now().getTime() });
            }
            else {
                // Never reached the password (the login page, a block, a timeout before
                // it): the start is given back. Anything else may have posted it and stays.
                await ledger?.unposted(attempt);
            }
        }

        throw err;
    }
    finally {
        turn?.end();
    }
};
