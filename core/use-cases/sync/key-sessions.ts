import { arcaDay, nextArcaDayStart } from '../../domain/arca-day.js';
import type { Cuit } from '../../domain/cuit.js';
import type { LoginRules, LoginWait } from '../../domain/login-ledger.js';
import { defaultWeeklyWrongCap, isKeyFailureKind } from '../../domain/login-ledger.js';
import { messages } from '../../domain/messages.js';
import type { Clock } from '../../ports/clock.js';
import type { AuthorityClient, KeySession } from '../../ports/authority-client.js';
import { AuthorityFailure } from '../../ports/authority-client.js';
import type { LoginLedger } from '../../ports/fleet.js';
import type { LoginPacer } from './login-pacing.js';
import { failurePolicy } from './sync-policy.js';

// One login per key per ARCA day (repeated logins bring CAPTCHAs): a key's session is kept and
// reused for every taxpayer it reaches (the person and every legal entity it represents), one
// taxpayer at a time; different keys run in parallel. A key is its identity (the keyed hash of
// its login CUIT and plaintext), never its CUIT alone: a session serves only the key that opened
// it, so another account's key for the same CUIT logs in (and fails) for itself. Before any
// password is posted, the login ledger (shared by the fleet through the database) must allow
// it by its rule (core/domain/login-ledger.ts); every start, post and outcome is written there. Logins wait their turn in the pacer. A session left idle
// `idleMs` is closed and the key let go (`onKeyClosed`), so that another worker may take it.
// Each session tells the authority client how much work it has left (LoginOptions.workLeft).

interface SyncKey {
    loginCuit: Cuit;
    password: string;
    // The key's identity (core/domain/key-identity.ts), and the account whose sync logs in.
    keyId: string;
    accountId: number;
}

export interface KeyLease {
    session: KeySession;
    // The share (0 to 1) of this taxpayer's work already done.
    progress(share: number): void;
    // broken: the session ended under us (the portal's); the next taxpayer logs in again.
    release(broken?: boolean): void;
}

export interface KeySessions {
    acquire(key: SyncKey): Promise<KeyLease>;
    close(): Promise<void>;
    // A session of the key (by identity) is open or being opened, or a taxpayer is waiting for it.
    has(keyId: string): boolean;
    readonly logins: number;
}

export interface KeySessionsOptions {
    ledger?: LoginLedger;              // memory only (this process) when absent
    pacer?: LoginPacer | null;
    maxRelogins?: number;
    // Unproven posts of one CUIT in any 7 days, over every account.
    weeklyWrongCap?: number;
    idleMs?: number | null;            // null: kept until close()
    onKeyClosed?: (keyId: string) => Promise<void>;
    // Asked when an idle session's time is up: true keeps it another idleMs (a job of the key
    // is due and waits for a free slot of this worker).
    stillWanted?: (keyId: string) => Promise<boolean>;
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

interface Entry {
    tail: Promise<void>;
    session: KeySession | null;
    day: string;
    // The taxpayers that asked for the key and have not released it (the one being read and
    // those waiting), and the share of the one being read already done.
    taxpayers: number;
    done: number;
    idle: ReturnType<typeof setTimeout> | null;
}

const defaultMaxRelogins = 1;

export const createKeySessions = (authority: AuthorityClient, clock: Pick<Clock, 'now'>, options: KeySessionsOptions = {}): KeySessions => {

    const ledger = options.ledger;
    const rules: LoginRules = { allowance: 1 + (options.maxRelogins ?? defaultMaxRelogins), weeklyWrongCap: options.weeklyWrongCap ?? defaultWeeklyWrongCap };
    const entries = new Map<string, Entry>();
    let logins = 0;

    const entry = (keyId: string): Entry => {

        let found = entries.get(keyId);
        if (!found) {
            found = { tail: Promise.resolve(), session: null, day: '', taxpayers: 0, done: 0, idle: null };
            entries.set(keyId, found);
        }

        return found;
    };

    // No taxpayer wants the key: its session ends now (none open) or after idleMs.
    const letGo = (keyId: string, current: Entry): void => {

        if (current.taxpayers > 0 || current.idle) {
            return;
        }

        const close = async () => {

            current.idle = null;
            if (current.taxpayers > 0 || entries.get(keyId) !== current) {
                return;
            }

            if (current.session && await options.stillWanted?.(keyId).catch(() => false)) {
                if (current.taxpayers === 0 && !current.idle && entries.get(keyId) === current) {
                    current.idle = setTimeout(() => void close(), options.idleMs ?? 0);
                    current.idle.unref();
                }

                return;
            }

            if (current.taxpayers > 0 || current.idle || entries.get(keyId) !== current) {
                return;
            }

            entries.delete(keyId);
            await current.session?.close().catch(() => undefined);
            await options.onKeyClosed?.(keyId).catch(() => undefined);
        };

        const idleMs = options.idleMs ?? null;
        if (current.session && idleMs === null) {
            return;
        }

        if (current.session) {
            current.idle = setTimeout(() => void close(), idleMs!);
            current.idle.unref();
            return;
        }

        void close();
    };

    // The key's login, if the ledger allows it: counted there before the password is posted,
    // and what came of it written there after. Without a ledger (a probe of one process's own),
    // the rule is not applied.
    const logIn = async (key: SyncKey, current: Entry, day: string): Promise<KeySession> => {

        const now = clock.now().getTime();
        const permit = ledger
            ? await ledger.begin({ keyCuit: key.loginCuit, keyId: key.keyId, accountId: key.accountId, day, at: now, rules })
            : { allowed: true as const, attempt: 0, proven: false, relogin: false };
        if (!permit.allowed) {
            throw new KeyDayOver(permit.reason, permit.ended?.kind ?? null, nextArcaDayStart(now) - now);
        }

        const attempt = permit.attempt;
        const turn = await options.pacer?.start().catch(async (err: unknown) => {

            await ledger?.unposted(attempt);
            throw err;
        });
        logins++;
        try {
            const session = await authority.login({ loginCuit: key.loginCuit, password: key.password }, {
                workLeft: () => Math.max(0, current.taxpayers - current.done),
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

    return {
        get logins() {

            return logins;
        },

        has: (keyId) => entries.has(keyId),

        async acquire(key) {

            const current = entry(key.keyId);
            current.taxpayers++;
            if (current.idle) {
                clearTimeout(current.idle);
                current.idle = null;
            }

            const previous = current.tail;
            let unlock!: () => void;
            current.tail = new Promise<void>((resolve) => {

                unlock = resolve;
            });
            await previous;

            try {
                const today = arcaDay(clock.now().getTime());
                if (current.session && current.day !== today) {
                    await current.session.close().catch(() => undefined);
                    current.session = null;
                }

                if (!current.session) {
                    current.session = await logIn(key, current, today);
                    current.day = today;
                }
            }
            catch (err) {
                current.taxpayers--;
                unlock();
                letGo(key.keyId, current);
                throw err;
            }

            const session = current.session;
            let released = false;
            return {
                session,
                progress(share) {

                    if (!released) {
                        current.done = Math.min(1, Math.max(0, share));
                    }
                },

                release(broken = false) {

                    if (released) {
                        return;
                    }

                    released = true;
                    current.taxpayers--;
                    current.done = 0;
                    if (broken && current.session === session) {
                        current.session = null;
                        void session.close().catch(() => undefined);
                    }

                    unlock();
                    letGo(key.keyId, current);
                }
            };
        },

        async close() {

            const open = [...entries.entries()];
            entries.clear();
            for (const [keyId, current] of open) {
                if (current.idle) {
                    clearTimeout(current.idle);
                }

                await current.tail.catch(() => undefined);
                await current.session?.close().catch(() => undefined);
                await options.onKeyClosed?.(keyId).catch(() => undefined);
            }
        }
    };
};
