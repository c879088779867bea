import type { Cuit } from '../domain/cuit.js';
import type { LoginRules, LoginWait } from '../domain/login-ledger.js';
import type { Timestamp } from '../domain/time.js';

// What every worker, machine and cron run shares about the authority, held by the database
// (docs/scaling.md): the login ledger per key and ARCA day, and the fleet's limits towards the
// authority's hosts. Instants here are wall-clock milliseconds.

export interface LoginLedgerEntry {
    keyCuit: Cuit;
    day: string;                       // YYYY-MM-DD, Buenos Aires
    logins: number;                    // logins started (less those that ended before the password)
    passwordPosts: number;             // logins that posted the password
    relogins: number;                  // logins started after the day's first
    ended: { kind: string; at: Timestamp } | null;
    lastLoginAt: Timestamp | null;
}

// One key's day, as its own account sees it (health): only that key's logins.
export interface KeyDayEntry {
    keyId: string;
    passwordPosts: number;
    loggedIn: boolean;
    ended: { kind: string; at: Timestamp } | null;
}

interface LoginRequest {
    keyCuit: Cuit;
    keyId: string;
    accountId: number;
    day: string;
    at: Timestamp;
    rules: LoginRules;
}

type LoginPermit =
    | { allowed: true; attempt: number; proven: boolean; relogin: boolean }
    | { allowed: false; reason: LoginWait; ended: { kind: string; at: Timestamp } | null };

// The fleet's login ledger (core/domain/login-ledger.ts has its rule): every login started at
// ARCA, by which key and on whose behalf, and how it ended.
export interface LoginLedger {
    // Decides by decideLogin and, when allowed, counts the login (atomically across the fleet:
    // two processes beginning at once must not both find the allowance free).
    begin(request: LoginRequest): Promise<LoginPermit>;
    passwordPosted(attempt: number, at: Timestamp): Promise<void>;
    // A login that ended before its password was posted gives its start back.
    unposted(attempt: number): Promise<void>;
    // How the login ended: 'ok' proves the key; a key failure refuses it for good (until a new
    // one is stored); endsDay ends that key's logins for the ARCA day.
    finish(attempt: number, outcome: { kind: string; endsDay: boolean; at: Timestamp }): Promise<void>;
    // Per login CUIT, over every key (staff's view).
    list(day: string, keyCuits?: readonly Cuit[]): Promise<LoginLedgerEntry[]>;
    // Per key identity (an account's own view).
    keyDays(day: string, keyIds: readonly string[]): Promise<KeyDayEntry[]>;
    // Unproven posts of the CUIT that count against the weekly cap now.
    wrongPosts(keyCuit: Cuit, now: Timestamp): Promise<number>;
    // Staff: unproven keys of the CUIT may try again (the weekly count starts over).
    clearWrongPosts(keyCuit: Cuit, at: Timestamp): Promise<void>;
    // Deletes the logins of ARCA days before `day`; proven and refused keys stay known.
    prune(beforeDay: string): Promise<number>;
}

export interface FleetLimits {
    // One of the fleet's `perMinute` login starts of the last minute: 0 when taken, otherwise
    // how long to wait before asking again.
    takeLoginStart(perMinute: number): Promise<number>;
    // The fleet's turn to start a login, one at a time across every process: waits until the
    // previous login's first request was answered `gapMs` ago (or, for one that ended without
    // an answer, its turn was taken `gapMs` ago). A turn whose process died frees itself.
    takeLoginTurn(gapMs: number): Promise<FleetLoginTurn>;
}

// A login's turn in the fleet, held from when it is taken until its first answer.
export interface FleetLoginTurn {
    // Its first request was answered: the next turn comes `gapMs` after now.
    answered(): Promise<void>;
    // It ended without an answer: the next turn comes `gapMs` after this one was taken.
    ended(): Promise<void>;
}

// The authority's hosts as the whole fleet sees them: a firewall block recorded by one worker
// stops every worker's requests to that host until it ends; at most `perHost` requests to a
// host are in flight across the fleet.
export interface HostGate {
    // Waits until the host is not blocked and one of its slots is free; the returned function
    // gives the slot back.
    enter(host: string): Promise<() => Promise<void>>;
    block(host: string, until: Timestamp): Promise<void>;
    blocks(): Promise<{ host: string; blockedUntil: Timestamp; blocks: number }[]>;
}
