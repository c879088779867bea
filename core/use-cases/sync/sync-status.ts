import { arcaDay } from '../../domain/arca-day.js';
import type { Cuit } from '../../domain/cuit.js';
import { parseCuit } from '../../domain/cuit.js';
import { invalid } from '../../domain/errors.js';
import { defaultWeeklyWrongCap } from '../../domain/login-ledger.js';
import { messages } from '../../domain/messages.js';
import type { SyncSystem } from '../../domain/sync-system.js';
import { toIso } from '../../domain/time.js';
import type { LoginLedger, LoginLedgerEntry } from '../../ports/fleet.js';
import type { Ports } from '../../ports/index.js';
import type { JobCounts, SyncSummary } from '../../ports/job-queue.js';
import type { QueueDeps } from './deps.js';
import { findSyncTargets } from './find-sync-targets.js';
import { systemsFor } from './sync-policy.js';

interface SystemStatus {
    system: SyncSystem;
    syncedAt: string | null;
    lastAttemptAt: string | null;
    lastError: string | null;
}

// A login key's line of the fleet's ledger for the ARCA day (docs/scaling.md): logins started,
// passwords posted, re-logins, and the failure that ended its logins for the day.
export interface KeyLogins {
    keyCuit: string;
    day: string;
    logins: number;
    passwordPosts: number;
    relogins: number;
    ended: { kind: string; at: string } | null;
    lastLoginAt: string | null;
}

// The day's ledger over every key: totals, and the keys worth a look (a re-login, or their
// day ended), one by one.
export interface FleetLogins {
    day: string;
    keys: number;
    logins: number;
    passwordPosts: number;
    relogins: number;
    ended: number;
    notable: KeyLogins[];
}

interface ClientSyncStatus {
    clientId: number;
    accountId: number;
    cuit: string;
    systems: SystemStatus[];
    jobs: JobCounts;
    // The login key's day (its own CUIT, or its representative's); null with no key.
    logins: KeyLogins | null;
    // New (unproven) keys of the login CUIT tried at ARCA in 7 days over every account, against
    // the cap (core/domain/login-ledger.ts): at the cap, new keys wait; null with no key.
    newKeys: { postsThisWeek: number; cap: number; waiting: boolean } | null;
}

export type SyncStatusResult =
    | { cuit: string; clients: ClientSyncStatus[] }
    | { summary: SyncSummary & { systems: (SyncSummary['systems'][number] & { oldestSyncedAtIso: string | null })[] }; jobs: JobCounts; logins: FleetLogins };

const keyLoginsView = (entry: LoginLedgerEntry): KeyLogins => ({
    keyCuit: entry.keyCuit,
    day: entry.day,
    logins: entry.logins,
    passwordPosts: entry.passwordPosts,
    relogins: entry.relogins,
    ended: entry.ended ? { kind: entry.ended.kind, at: toIso(entry.ended.at)! } : null,
    lastLoginAt: toIso(entry.lastLoginAt)
});

// The key's line today, zeros when it has not logged in yet.
export const keyLoginsToday = async (ledger: LoginLedger, keyCuit: Cuit, now: number): Promise<KeyLogins> => {

    const day = arcaDay(now);
    const [entry] = await ledger.list(day, [keyCuit]);
    return keyLoginsView(entry ?? { keyCuit, day, logins: 0, passwordPosts: 0, relogins: 0, ended: null, lastLoginAt: null });
};

const newKeysOf = async (ledger: LoginLedger, keyCuit: Cuit, now: number, cap: number): Promise<ClientSyncStatus['newKeys']> => {

    const postsThisWeek = await ledger.wrongPosts(keyCuit, now);
    return { postsThisWeek, cap, waiting: postsThisWeek >= cap };
};

// Staff: unproven keys of the CUIT may be tried again (after the client confirmed the key with
// ARCA): the weekly count of unproven posts starts over. What ARCA itself counts is not reset.
export const clearNewKeyWait = async (deps: Pick<QueueDeps, 'clock'> & { loginLedger: LoginLedger }, input: { cuit: string }): Promise<{ cuit: string }> => {

    const cuit = parseCuit(input.cuit);
    if (!cuit) {
        throw invalid([messages.admin.invalidCuit]);
    }

    await deps.loginLedger.clearWrongPosts(cuit, deps.clock.now().getTime());
    return { cuit };
};

const fleetLogins = async (ledger: LoginLedger, now: number): Promise<FleetLogins> => {

    const day = arcaDay(now);
    const entries = await ledger.list(day);
    const sum = (pick: (entry: LoginLedgerEntry) => number) => entries.reduce((total, entry) => total + pick(entry), 0);
    return {
        day,
        keys: entries.length,
        logins: sum((entry) => entry.logins),
        passwordPosts: sum((entry) => entry.passwordPosts),
        relogins: sum((entry) => entry.relogins),
        ended: entries.filter((entry) => entry.ended).length,
        notable: entries.filter((entry) => entry.ended || entry.relogins > 0).map(keyLoginsView)
    };
};

// `arcasync sync status`: per system, the last success and the last error of a CUIT (in
// every account that manages it); without a CUIT, totals over all clients and the queue.
export const syncStatus = async (
    deps: QueueDeps & Pick<Ports, 'syncStates'> & { loginLedger: LoginLedger },
    input: { cuit?: string | undefined; weeklyWrongCap?: number }
): Promise<SyncStatusResult> => {

    const now = deps.clock.now().getTime();
    if (input.cuit === undefined) {
        const [summary, jobs, logins] = await Promise.all([
            deps.syncTargets.summary(),
            deps.jobQueue.counts(undefined, now),
            fleetLogins(deps.loginLedger, now)
        ]);
        const systems = summary.systems.map((entry) => ({ ...entry, oldestSyncedAtIso: toIso(entry.oldestSyncedAt) }));
        return { summary: { ...summary, systems }, jobs, logins };
    }

    const { cuit, clients } = await findSyncTargets(deps, input.cuit);

    const result: ClientSyncStatus[] = [];
    for (const client of clients) {
        const [target, states, jobs] = await Promise.all(
            [deps.syncTargets.find(client.id), deps.syncStates.list(client.id), deps.jobQueue.counts([client.id], now)]
        );
        const expected = target ? systemsFor(target.tipo) : [];
        const bySystem = new Map(states.map((state) => [state.system, state]));
        result.push({
            clientId: client.id,
            accountId: client.accountId,
            cuit,
            systems: expected.map((system) => {

                const state = bySystem.get(system);
                return {
                    system,
                    syncedAt: toIso(state?.syncedAt ?? null),
                    lastAttemptAt: toIso(state?.lastAttemptAt ?? null),
                    lastError: state?.lastError ?? null
                };
            }),
            jobs,
            logins: target?.loginCuit ? await keyLoginsToday(deps.loginLedger, target.loginCuit, now) : null,
            newKeys: target?.loginCuit ? await newKeysOf(deps.loginLedger, target.loginCuit, now, input.weeklyWrongCap ?? defaultWeeklyWrongCap) : null
        });
    }

    return { cuit, clients: result };
};
