import type { Cuit } from '../domain/cuit.js';
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

export type LoginPermit =
    | { allowed: true; relogin: boolean }
    // ended: a failure ended the key's logins for the day; null: the day's logins are used up.
    | { allowed: false; ended: { kind: string; at: Timestamp } | null };

export interface LoginLedger {
    // A login of the key may start today when no failure ended its day (a refused or expired
    // key ends it for that key only: a new one, another fingerprint, may try) and fewer than
    // `allowance` logins started: then it is counted (atomically). Started, not posted: two
    // processes beginning at once must not both find the allowance free before either posts.
    begin(input: { keyCuit: Cuit; day: string; fingerprint: string; allowance: number; at: Timestamp }): Promise<LoginPermit>;
    passwordPosted(keyCuit: Cuit, day: string, at: Timestamp): Promise<void>;
    // A login that ended before its password was posted gives its start back.
    unposted(input: { keyCuit: Cuit; day: string; relogin: boolean }): Promise<void>;
    // A failure that ends the key's logins for the day (CAPTCHA, second factor, an unexpected
    // page or a 5xx after the password, a refused or expired key).
    end(input: { keyCuit: Cuit; day: string; kind: string; fingerprint: string; at: Timestamp }): Promise<void>;
    list(day: string, keyCuits?: readonly Cuit[]): Promise<LoginLedgerEntry[]>;
}

export interface FleetLimits {
    // One of the fleet's `perMinute` login starts of the last minute: 0 when taken, otherwise
    // how long to wait before asking again.
    takeLoginStart(perMinute: number): Promise<number>;
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
