import { arcaDay, nextArcaDayStart } from '../../domain/arca-day.js';
import type { Cuit } from '../../domain/cuit.js';
import { messages } from '../../domain/messages.js';
import type { Clock } from '../../ports/clock.js';
import type { AuthorityClient, KeySession } from '../../ports/authority-client.js';
import type { AuthorityFailureKind } from '../../ports/authority-client.js';
import { AuthorityFailure } from '../../ports/authority-client.js';
import type { LoginLedger, LoginLedgerEntry } from '../../ports/fleet.js';
import type { LoginPacer } from './login-pacing.js';
import { failurePolicy, isKeyFailure } from './sync-policy.js';

// One login per key per ARCA day (repeated logins bring CAPTCHAs): a key's session is kept and
// reused for every taxpayer it reaches (the person and every legal entity it represents), one
// taxpayer at a time; different keys run in parallel. Before any password is posted, the login
// ledger (shared by the fleet through the database) must allow it: no failure ended the key's
// day, and fewer than 1 + `maxRelogins` passwords were posted today; every start, post and
// ending failure is written there. Logins wait their turn in the pacer. A session left idle
// `idleMs` is closed and the key let go (`onKeyClosed`), so that another worker may take it.
// Each session tells the authority client how much work it has left (LoginOptions.workLeft).

export interface SyncKey {
    loginCuit: Cuit;
    password: string;
    fingerprint: string;
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
    // A session of the key is open or being opened, or a taxpayer is waiting for it.
    has(loginCuit: Cuit): boolean;
    readonly logins: number;
}

export interface KeySessionsOptions {
    ledger?: LoginLedger;              // memory only (this process) when absent
    pacer?: LoginPacer | null;
    maxRelogins?: number;
    idleMs?: number | null;            // null: kept until close()
    onKeyClosed?: (loginCuit: Cuit) => Promise<void>;
    // Asked when an idle session's time is up: true keeps it another idleMs (a job of the key
    // is due and waits for a free slot of this worker).
    stillWanted?: (loginCuit: Cuit) => Promise<boolean>;
}

// The key's logins today are over: a failure ended them (kind), or they are used up (null).
// The job comes back when the ARCA day ends.
export class KeyDayOver extends Error {

    readonly kind: string | null;
    readonly retryAfterMs: number;

    constructor(kind: string | null, retryAfterMs: number) {

        super(
            kind === null ? messages.sync.loginsUsedToday : messages.sync.loginsEndedToday(messages.authority[kind as keyof typeof messages.authority] ?? kind)
        );
        this.name = 'KeyDayOver';
        this.kind = kind;
        this.retryAfterMs = retryAfterMs;
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

export const defaultMaxRelogins = 1;

// The ledger of one process, for a sync run without a database ledger.
export const memoryLedger = (): LoginLedger => {

    const rows = new Map<string, LoginLedgerEntry & { ended: (LoginLedgerEntry['ended'] & { fingerprint: string }) | null }>();
    const row = (keyCuit: Cuit, day: string) => {

        const id = `${keyCuit}:${day}`;
        let found = rows.get(id);
        if (!found) {
            found = { keyCuit, day, logins: 0, passwordPosts: 0, relogins: 0, ended: null, lastLoginAt: null };
            rows.set(id, found);
        }

        return found;
    };

    return {
        async begin({ keyCuit, day, fingerprint, allowance, at }) {

            const found = row(keyCuit, day);
            const ended = found.ended && !(isKeyFailure(found.ended.kind as AuthorityFailureKind) && found.ended.fingerprint !== fingerprint);
            if (ended || found.logins >= allowance) {
                return { allowed: false, ended: found.ended };
            }

            const relogin = found.logins > 0;
            found.logins++;
            found.relogins += relogin ? 1 : 0;
            found.lastLoginAt = at;
            return { allowed: true, relogin };
        },
        async passwordPosted(keyCuit, day) {

            row(keyCuit, day).passwordPosts++;
        },
        async unposted({ keyCuit, day, relogin }) {

            const found = row(keyCuit, day);
            found.logins = Math.max(0, found.logins - 1);
            found.relogins = Math.max(0, found.relogins - (relogin ? 1 : 0));
        },
        async end({ keyCuit, day, kind, fingerprint, at }) {

            row(keyCuit, day).ended = { kind, at, fingerprint };
        },
        async list(day, keyCuits) {

            return [...rows.values()].filter((entry) => entry.day === day && (!keyCuits || keyCuits.includes(entry.keyCuit)));
        }
    };
};

export const createKeySessions = (authority: AuthorityClient, clock: Pick<Clock, 'now'>, options: KeySessionsOptions = {}): KeySessions => {

    const ledger = options.ledger ?? memoryLedger();
    const allowance = 1 + (options.maxRelogins ?? defaultMaxRelogins);
    const entries = new Map<Cuit, Entry>();
    let logins = 0;

    const entry = (cuit: Cuit): Entry => {

        let found = entries.get(cuit);
        if (!found) {
            found = { tail: Promise.resolve(), session: null, day: '', taxpayers: 0, done: 0, idle: null };
            entries.set(cuit, found);
        }

        return found;
    };

    // No taxpayer wants the key: its session ends now (none open) or after idleMs.
    const letGo = (cuit: Cuit, current: Entry): void => {

        if (current.taxpayers > 0 || current.idle) {
            return;
        }

        const close = async () => {

            current.idle = null;
            if (current.taxpayers > 0 || entries.get(cuit) !== current) {
                return;
            }

            if (current.session && await options.stillWanted?.(cuit).catch(() => false)) {
                if (current.taxpayers === 0 && !current.idle && entries.get(cuit) === current) {
                    current.idle = setTimeout(() => void close(), options.idleMs ?? 0);
                    current.idle.unref();
                }

                return;
            }

            if (current.taxpayers > 0 || current.idle || entries.get(cuit) !== current) {
                return;
            }

            entries.delete(cuit);
            await current.session?.close().catch(() => undefined);
            await options.onKeyClosed?.(cuit).catch(() => undefined);
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
    // and what came of it written there after.
    const logIn = async (key: SyncKey, current: Entry, day: string): Promise<KeySession> => {

        const permit = await ledger.begin({ keyCuit: key.loginCuit, day, fingerprint: key.fingerprint, allowance, at: clock.now().getTime() });
        if (!permit.allowed) {
            const now = clock.now().getTime();
            throw new KeyDayOver(permit.ended?.kind ?? null, nextArcaDayStart(now) - now);
        }

        const turn = await options.pacer?.start().catch(async (err: unknown) => {

            await ledger.unposted({ keyCuit: key.loginCuit, day, relogin: permit.relogin });
            throw err;
        });
        logins++;
        try {
            const session = await authority.login({ loginCuit: key.loginCuit, password: key.password }, {
                workLeft: () => Math.max(0, current.taxpayers - current.done),
                ...(turn ? { started: turn.started } : {})
            });
            await ledger.passwordPosted(key.loginCuit, day, clock.now().getTime());
            return session;
        }
        catch (err) {
            if (err instanceof AuthorityFailure) {
                if (err.touchedPassword || isKeyFailure(err.kind)) {
                    await ledger.passwordPosted(key.loginCuit, day, clock.now().getTime());
                }
                else {
                    // Never reached the password (the login page, a block, a timeout before
                    // it): the start is given back. Anything else may have posted it and stays.
                    await ledger.unposted({ keyCuit: key.loginCuit, day, relogin: permit.relogin });
                }

                if (failurePolicy.endsLoginsForDay(err.kind, err.touchedPassword)) {
                    await ledger.end({ keyCuit: key.loginCuit, day, kind: err.kind, fingerprint: key.fingerprint, at: clock.now().getTime() });
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

        has: (cuit) => entries.has(cuit),

        async acquire(key) {

            const current = entry(key.loginCuit);
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
                letGo(key.loginCuit, current);
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
                    letGo(key.loginCuit, current);
                }
            };
        },

        async close() {

            const open = [...entries.entries()];
            entries.clear();
            for (const [cuit, current] of open) {
                if (current.idle) {
                    clearTimeout(current.idle);
                }

                await current.tail.catch(() => undefined);
                await current.session?.close().catch(() => undefined);
                await options.onKeyClosed?.(cuit).catch(() => undefined);
            }
        }
    };
};
