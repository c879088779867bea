import { arcaDay, arcaDayStart } from '../../domain/arca-day.js';
import type { DueClient } from '../../ports/job-queue.js';
import type { Timestamp } from '../../domain/time.js';

// The daily syncs are spread over a window of the ARCA day (Buenos Aires; a night window by
// default) instead of every CUIT coming due at the same minute, fairly across accounts: the
// accounts take turns, one key at a time, so an account of ten thousand CUITs does not push a
// small one to the end of the night. A key's taxpayers (the person and the legal entities it
// represents) share one time, so they are read inside one session.

export interface SyncWindow {
    startMs: number;                   // after Buenos Aires midnight
    endMs: number;
}

export interface WindowPlan {
    day: string;                       // the ARCA day planned
    dayStart: Timestamp;
    from: Timestamp;
    to: Timestamp;
}

const internals = {
    dayMs: 24 * 60 * 60_000
};

// Today's window while it lasts (from now on), otherwise tomorrow's.
export const windowPlan = (now: Timestamp, window: SyncWindow): WindowPlan => {

    const today = arcaDayStart(arcaDay(now));
    if (now < today + window.endMs) {
        return { day: arcaDay(now), dayStart: today, from: Math.max(now, today + window.startMs), to: today + window.endMs };
    }

    const tomorrow = today + internals.dayMs;
    return { day: arcaDay(tomorrow), dayStart: tomorrow, from: tomorrow + window.startMs, to: tomorrow + window.endMs };
};

// When each due client runs: keys in turns of accounts, evenly over [from, to).
export const spreadFairly = (due: readonly DueClient[], from: Timestamp, to: Timestamp): { clientId: number; runAfter: Timestamp }[] => {

    const groups = new Map<string, { accountId: number; clients: number[] }>();
    for (const client of due) {
        const id = client.keyId ?? `client:${client.clientId}`;
        const group = groups.get(id) ?? { accountId: client.accountId, clients: [] };
        group.clients.push(client.clientId);
        groups.set(id, group);
    }

    const turns = new Map<number, number>();
    const ordered = [...groups.values()]
        .map((group) => {

            const turn = turns.get(group.accountId) ?? 0;
            turns.set(group.accountId, turn + 1);
            return { ...group, turn };
        })
        .sort((a, b) => a.turn - b.turn || a.accountId - b.accountId);

    const span = Math.max(0, to - from);
    return ordered.flatMap((group, index) => group.clients.map((clientId) => ({ clientId, runAfter: from + Math.floor(index * span / ordered.length) })));
};
