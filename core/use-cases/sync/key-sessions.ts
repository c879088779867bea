import { arcaDay } from '../../domain/arca-day.js';
import { defaultWeeklyWrongCap } from '../../domain/login-ledger.js';
import type { Clock } from '../../ports/clock.js';
import type { AuthorityClient, KeySession } from '../../ports/authority-client.js';
import type { LoginLedger } from '../../ports/fleet.js';
import type { SyncKey } from './key-login.js';
import { logInKey } from './key-login.js';
import type { LoginPacer } from './login-pacing.js';

// One login per key per ARCA day (repeated logins bring CAPTCHAs): a key's session is kept and
// reused for every taxpayer it reaches (the person and every legal entity it represents), one
// taxpayer at a time; different keys run in parallel. A key is its identity (the keyed hash of
// its login CUIT and plaintext), never its CUIT alone: a session serves only the key that opened
// it, so another account's key for the same CUIT logs in (and fails) for itself. Before any
// password is posted, the login ledger (shared by the fleet through the database) must allow
// it by its rule (key-login.ts). A session left idle
// `idleMs` is closed and the key let go (`onKeyClosed`), so that another worker may take it.
// Each session tells the authority client how much work it has left (LoginOptions.workLeft).

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

// One key's place in the pool, as plain data: its session and the ARCA day it was opened on,
// the taxpayers that asked for it and have not released it (the one being read and those
// waiting), and the share of the one being read already done.
interface KeySlot {
    session: KeySession | null;
    day: string;
    taxpayers: number;
    done: number;
}

// What the pool does with a key: nothing while a taxpayer wants it; with a session, keep it
// (no idle limit) or close it once idle; without one, let the key go now.
type Unwanted = 'wanted' | 'keep' | 'idle' | 'close';

// The pool's rules as pure transitions of a slot.
const slots = {
    empty: (): KeySlot => ({ session: null, day: '', taxpayers: 0, done: 0 }),
    asked: (slot: KeySlot): KeySlot => ({ ...slot, taxpayers: slot.taxpayers + 1 }),
    // A taxpayer let go of the key; a broken session is not handed to the next one.
    released: (slot: KeySlot, session: KeySession, broken: boolean): KeySlot => ({
        ...slot,
        taxpayers: slot.taxpayers - 1,
        done: 0,
        session: broken && slot.session === session ? null : slot.session
    }),
    // The session of another ARCA day is not used: a new day is a new login.
    stale: (slot: KeySlot, today: string): boolean => slot.session !== null && slot.day !== today,
    unwanted: (slot: KeySlot, idleMs: number | null): Unwanted => (
        slot.taxpayers > 0 ? 'wanted' : !slot.session ? 'close' : idleMs === null ? 'keep' : 'idle'
    ),
    workLeft: (slot: KeySlot): number => Math.max(0, slot.taxpayers - slot.done)
};

// A slot in the pool with what is not data: the queue of its taxpayers (one at a time) and the
// idle timer.
interface Entry {
    slot: KeySlot;
    tail: Promise<void>;
    idle: ReturnType<typeof setTimeout> | null;
}

export const defaultMaxRelogins = 1;

export const createKeySessions = (authority: AuthorityClient, clock: Pick<Clock, 'now'>, options: KeySessionsOptions = {}): KeySessions => {

    const entries = new Map<string, Entry>();
    const idleMs = options.idleMs ?? null;
    let logins = 0;
    const login = {
        authority,
        clock,
        ledger: options.ledger,
        pacer: options.pacer,
        rules: { allowance: 1 + (options.maxRelogins ?? defaultMaxRelogins), weeklyWrongCap: options.weeklyWrongCap ?? defaultWeeklyWrongCap },
        counted: () => void logins++
    };

    const entry = (keyId: string): Entry => {

        let found = entries.get(keyId);
        if (!found) {
            found = { slot: slots.empty(), tail: Promise.resolve(), idle: null };
            entries.set(keyId, found);
        }

        return found;
    };

    // The key's session closed and the key let go, unless a taxpayer came for it meanwhile or a
    // job of the key still waits for this worker (stillWanted: kept another idleMs).
    const close = async (keyId: string, current: Entry): Promise<void> => {

        current.idle = null;
        const mine = () => slots.unwanted(current.slot, idleMs) !== 'wanted' && !current.idle && entries.get(keyId) === current;
        if (!mine()) {
            return;
        }

        if (current.slot.session && await options.stillWanted?.(keyId).catch(() => false)) {
            if (mine()) {
                wait(keyId, current);
            }

            return;
        }

        if (mine()) {
            entries.delete(keyId);
            await current.slot.session?.close().catch(() => undefined);
            await options.onKeyClosed?.(keyId).catch(() => undefined);
        }
    };

    const wait = (keyId: string, current: Entry): void => {

        current.idle = setTimeout(() => void close(keyId, current), idleMs ?? 0);
        current.idle.unref();
    };

    // No taxpayer wants the key: its session ends now (none open) or after idleMs.
    const letGo = (keyId: string, current: Entry): void => {

        if (current.idle) {
            return;
        }

        const next = slots.unwanted(current.slot, idleMs);
        if (next === 'idle') {
            wait(keyId, current);
        }
        else if (next === 'close') {
            void close(keyId, current);
        }
    };

    return {
        get logins() {

            return logins;
        },

        has: (keyId) => entries.has(keyId),

        async acquire(key) {

            const current = entry(key.keyId);
            current.slot = slots.asked(current.slot);
            if (current.idle) {
                clearTimeout(current.idle);
                current.idle = null;
            }

            // One taxpayer at a time: this one goes when the one before it released the key.
            const previous = current.tail;
            let unlock!: () => void;
            current.tail = new Promise<void>((resolve) => {

                unlock = resolve;
            });
            await previous;

            try {
                const today = arcaDay(clock.now().getTime());
                if (slots.stale(current.slot, today)) {
                    await current.slot.session!.close().catch(() => undefined);
                    current.slot = { ...current.slot, session: null };
                }

                if (!current.slot.session) {
                    const session = await logInKey(login, key, today, () => slots.workLeft(current.slot));
                    current.slot = { ...current.slot, session, day: today };
                }
            }
            catch (err) {
                current.slot = { ...current.slot, taxpayers: current.slot.taxpayers - 1 };
                unlock();
                letGo(key.keyId, current);
                throw err;
            }

            const session = current.slot.session!;
            let released = false;
            return {
                session,
                progress(share) {

                    if (!released) {
                        current.slot = { ...current.slot, done: Math.min(1, Math.max(0, share)) };
                    }
                },

                release(broken = false) {

                    if (released) {
                        return;
                    }

                    released = true;
                    const before = current.slot.session;
                    current.slot = slots.released(current.slot, session, broken);
                    if (before && !current.slot.session) {
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
                await current.slot.session?.close().catch(() => undefined);
                await options.onKeyClosed?.(keyId).catch(() => undefined);
            }
        }
    };
};
