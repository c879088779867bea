import type { Knex } from 'knex';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FleetLimits, FleetLoginTurn, HostGate } from '../../core/ports/fleet.js';
import { dialectOf } from './connection.js';
import { toNumber } from './column-values.js';
import { isLockConflict } from './errors.js';

// The fleet's shared state towards the authority (migration 009, docs/scaling.md); the login
// ledger is login-ledger.ts.
// - Counted slots (fleet_slots): N rows per name; taking one is one UPDATE of a row whose
//   `until` has passed, atomic on both databases; a slot taken by a process that died frees
//   itself when its `until` passes.
// - Host blocks: one row per host with its until-time; a host slot is only handed out while
//   the host is not blocked, in the same statement, so a block recorded by one worker stops
//   every worker's next request to that host.
// - The fleet's login turn (fleet_slots `login-turn`, one row): held (a holder, `until` a
//   lease ahead, renewed) from the turn until the login's first answer, then given back with
//   `until` the next turn's earliest time (the answer plus the gap). So the gap between two
//   login starts holds across processes and machines, on SQLite too (one file, one machine):
//   a few writes per login, not per request.

export interface HostGateOptions {
    perHost: number;                   // requests in flight per host across the fleet
    slotLeaseMs: number;               // a slot held longer than this (a dead process) frees itself
    owner: string;
}

const internals = {
    loginStarts: 'login-starts',
    minuteMs: 60_000,
    loginTurn: 'login-turn',
    // A turn whose process died (no renewal) frees itself this long after its last renewal.
    defaultTurnLeaseMs: 15_000,
    // While a turn is held, the others look again this often (the gap after it, they sleep out).
    turnPollMs: 100
};

// The slots of one name exist once asked for (as many as the largest count asked).
const slots = (knex: Knex) => {

    const made = new Map<string, number>();
    const ensure = async (name: string, count: number) => {

        if ((made.get(name) ?? 0) >= count) {
            return;
        }

        const rows = Array.from({ length: count }, (_, slot) => ({ name, slot, holder: null, until: 0 }));
        // In parts: SQLite takes at most 500 terms in the compound SELECT knex writes.
        for (let i = 0; i < rows.length; i += 100) {
            await knex('fleet_slots').insert(rows.slice(i, i + 100)).onConflict(['name', 'slot']).ignore();
        }
        made.set(name, count);
    };

    return {
        // One free slot of `name` among the first `count`, held by `holder` until `until`; with
        // `unblocked`, only while that host is not blocked.
        async take(name: string, count: number, holder: string, until: number, now: number, unblocked: string | null): Promise<boolean> {

            try {
                return await this.takeOnce(name, count, holder, until, now, unblocked);
            }
            catch (err) {
                // Two processes after the same slot at once: InnoDB ends one as a deadlock (or
                // SQLite is busy); the loser asks again like any other full turn.
                if (isLockConflict(err)) {
                    return false;
                }

                throw err;
            }
        },

        async takeOnce(name: string, count: number, holder: string, until: number, now: number, unblocked: string | null): Promise<boolean> {

            await ensure(name, count);
            const notBlocked = 'NOT EXISTS (SELECT 1 FROM authority_host_blocks b WHERE b.host = ? AND b.blocked_until > ?)';
            if (dialectOf(knex) === 'mysql') {
                const [result] = await knex.raw(`UPDATE fleet_slots SET holder = ?, until = ? WHERE name = ? AND slot < ? AND until <= ?${unblocked === null ? '' : ` AND ${notBlocked}`} ORDER BY slot LIMIT 1`,
                    [holder, until, name, count, now, ...(unblocked === null ? [] : [unblocked, now])]) as [{ affectedRows: number }];
                return result.affectedRows === 1;
            }

            const pick = knex('fleet_slots').select('rowid').where({ name }).andWhere('slot', '<', count).andWhere('until', '<=', now).orderBy('slot').limit(1);
            const update = knex('fleet_slots').where('rowid', pick);
            if (unblocked !== null) {
                update.whereRaw(notBlocked, [unblocked, now]);
            }

            return Number(await update.update({ holder, until })) === 1;
        },

        async give(name: string, holder: string): Promise<void> {

            for (let attempt = 1; ; attempt++) {
                try {
                    await knex('fleet_slots').where({ name, holder }).update({ holder: null, until: 0 });
                    return;
                }
                catch (err) {
                    // Not given back, the slot frees itself when its `until` passes.
                    if (!isLockConflict(err) || attempt >= 3) {
                        return;
                    }
                }
            }
        }
    };
};

export const fleetLimits = (knex: Knex, owner: string, options: { turnLeaseMs?: number } = {}): FleetLimits => {

    const fleet = slots(knex);
    const turnLeaseMs = options.turnLeaseMs ?? internals.defaultTurnLeaseMs;
    const turnRow = () => knex('fleet_slots').where({ name: internals.loginTurn, slot: 0 });
    let turns = 0;

    // Writes to a held turn, one at a time (a renewal never lands after the turn was given
    // back). A write that fails leaves the turn to its lease: the fleet's logins wait a few
    // seconds, none starts early.
    const held = (holder: string, takenAt: number, gapMs: number): FleetLoginTurn => {

        let done = false;
        let writes = Promise.resolve();
        const write = (update: () => Promise<unknown>): Promise<void> => {

            writes = writes.then(async () => {

                for (let attempt = 1; ; attempt++) {
                    try {
                        await update();
                        return;
                    }
                    catch (err) {
                        if (!isLockConflict(err) || attempt >= 3) {
                            return;
                        }
                    }
                }
            });
            return writes;
        };

        const renewal = setInterval(() => void write(async () => {

            if (!done) {
                await turnRow().andWhere({ holder }).update({ until: Date.now() + turnLeaseMs });
            }
        }), turnLeaseMs / 3);
        renewal.unref();

        const giveBack = (until: number): Promise<void> => {

            if (done) {
                return writes;
            }

            done = true;
            clearInterval(renewal);
            return write(() => turnRow().andWhere({ holder }).update({ holder: null, until }));
        };

        return {
            answered: () => giveBack(Date.now() + gapMs),
            ended: () => giveBack(takenAt + gapMs)
        };
    };

    return {
        async takeLoginTurn(gapMs) {

            const holder = `${owner}:turn:${++turns}`;
            for (;;) {
                // Read first: a waiting process writes only when the turn looks free.
                const now = Date.now();
                const row = await turnRow().select('holder', 'until').first() as { holder: unknown; until: unknown } | undefined;
                const until = toNumber(row?.until ?? 0);
                if (until > now) {
                    // Held: look again soon; given back: sleep out the gap.
                    await sleep(row?.holder === null ? until - now : Math.min(until - now, internals.turnPollMs * (1 + Math.random())));
                    continue;
                }

                if (await fleet.take(internals.loginTurn, 1, holder, now + turnLeaseMs, now, null)) {
                    return held(holder, now, gapMs);
                }

                await sleep(5 + Math.random() * 20);
            }
        },

        async takeLoginStart(perMinute) {

            const now = Date.now();
            if (await fleet.take(internals.loginStarts, perMinute, owner, now + internals.minuteMs, now, null)) {
                return 0;
            }

            const next = await knex('fleet_slots').where({
                name: internals.loginStarts
            }).andWhere('slot', '<', perMinute).min({ until: 'until' }).first() as { until: unknown } | undefined;
            return Math.max(1, toNumber(next?.until ?? now + 1) - now);
        }
    };
};

export const hostGate = (knex: Knex, options: HostGateOptions): HostGate => {

    const fleet = slots(knex);
    const sqlite = dialectOf(knex) === 'sqlite';
    let taken = 0;
    return {
        async enter(host) {

            // SQLite (one machine): the block is shared, read without a write; a slot per
            // request would make every request a write that the sync's saves wait behind, so
            // the cap of requests in flight is each process's own there.
            if (sqlite) {
                for (;;) {
                    const now = Date.now();
                    const block = await knex('authority_host_blocks').select('blocked_until').where({ host }).andWhere('blocked_until', '>', now).first() as {
                        blocked_until: unknown;
                    } | undefined;
                    if (!block) {
                        return () => Promise.resolve();
                    }

                    await sleep(Math.min(1_000, toNumber(block.blocked_until) - now));
                }
            }

            const name = `host:${host}`;
            const holder = `${options.owner}:${++taken}`;
            for (;;) {
                const now = Date.now();
                if (await fleet.take(name, options.perHost, holder, now + options.slotLeaseMs, now, host)) {
                    return () => fleet.give(name, holder);
                }

                // Blocked: look again within a second (the block may be extended); full: soon.
                const block = await knex('authority_host_blocks').select('blocked_until').where({ host }).andWhere('blocked_until', '>', now).first() as {
                    blocked_until: unknown;
                } | undefined;
                await sleep(block ? Math.min(1_000, toNumber(block.blocked_until) - now) : 10 + Math.random() * 30);
            }
        },

        async block(host, until) {

            const now = Date.now();
            const current = await knex('authority_host_blocks').where({ host }).first() as Record<string, unknown> | undefined;
            if (current) {
                await knex('authority_host_blocks').where({ host }).update({
                    blocked_until: Math.max(until, toNumber(current.blocked_until)),
                    blocked_at: now,
                    blocks: knex.raw('blocks + 1')
                });
                return;
            }

            await knex('authority_host_blocks').insert({
                host,
                blocked_until: until,
                blocked_at: now,
                blocks: 1
            }).onConflict('host').merge(['blocked_until', 'blocked_at']);
        },

        async blocks() {

            const rows = await knex('authority_host_blocks').orderBy('host') as Record<string, unknown>[];
            return rows.map((row) => ({ host: String(row.host), blockedUntil: toNumber(row.blocked_until), blocks: toNumber(row.blocks) }));
        }
    };
};
