import type { Cuit } from '../../domain/cuit.js';
import type { Clock } from '../../ports/clock.js';
import type { AuthorityClient, KeySession } from '../../ports/authority-client.js';
import { AuthorityFailure } from '../../ports/authority-client.js';
import { failurePolicy } from './sync-policy.js';

// One login per key per day (AUTHORITY.md: repeated logins bring CAPTCHAs): the session of a
// key is kept and reused for every taxpayer it reaches (the person and every legal entity it
// represents), one taxpayer at a time; different keys run in parallel. A login that failed
// after posting the password, with a refused key, a CAPTCHA or a second factor is remembered
// until the day ends, so the key's other taxpayers fail at once instead of logging in again.
// Each session tells the authority client how much work it has left (LoginOptions.workLeft):
// the key with taxpayers waiting for it is the longest chain of the day and goes first.

export interface SyncKey {
    id: string;                        // the login client and its sealed key's fingerprint
    loginCuit: Cuit;
    password: string;
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
    readonly logins: number;
}

interface Entry {
    tail: Promise<void>;
    session: KeySession | null;
    day: string;
    failed: { error: unknown; day: string } | null;
    // The taxpayers that asked for the key and have not released it (the one being read and
    // those waiting), and the share of the one being read already done.
    taxpayers: number;
    done: number;
}

export const createKeySessions = (authority: AuthorityClient, clock: Clock): KeySessions => {

    const entries = new Map<string, Entry>();
    let logins = 0;
    const day = () => clock.now().toISOString().slice(0, 10);

    const entry = (id: string): Entry => {

        let found = entries.get(id);
        if (!found) {
            found = { tail: Promise.resolve(), session: null, day: '', failed: null, taxpayers: 0, done: 0 };
            entries.set(id, found);
        }

        return found;
    };

    return {
        get logins() {

            return logins;
        },

        async acquire(key) {

            const current = entry(key.id);
            current.taxpayers++;
            const previous = current.tail;
            let unlock!: () => void;
            current.tail = new Promise<void>((resolve) => {

                unlock = resolve;
            });
            await previous;

            try {
                const today = day();
                if (current.failed && current.failed.day === today) {
                    throw current.failed.error;
                }

                if (current.session && current.day !== today) {
                    await current.session.close().catch(() => undefined);
                    current.session = null;
                }

                if (!current.session) {
                    logins++;
                    try {
                        current.session = await authority.login({ loginCuit: key.loginCuit, password: key.password }, { workLeft: () => Math.max(0, current.taxpayers - current.done) });
                        current.day = today;
                        current.failed = null;
                    }
                    catch (err) {
                        if (err instanceof AuthorityFailure && failurePolicy.endsLoginsForDay(err.kind, err.touchedPassword)) {
                            current.failed = { error: err, day: today };
                        }

                        throw err;
                    }
                }
            }
            catch (err) {
                current.taxpayers--;
                unlock();
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
                }
            };
        },

        async close() {

            const open = [...entries.values()];
            entries.clear();
            for (const current of open) {
                await current.tail.catch(() => undefined);
                await current.session?.close().catch(() => undefined);
            }
        }
    };
};
