import { expect } from 'chai';
import type { RateLimits } from '../../../core/domain/rate-limit.js';
import { windowsAt } from '../../../core/domain/rate-limit.js';
import type { RateLimitOutcome, RateLimitUsage } from '../../../core/ports/index.js';
import type { CounterRequest, LeaseStore } from '../../../adapters/knex/fast/rate-limit-leases.js';
import { leasedCounter } from '../../../adapters/knex/fast/rate-limit-leases.js';

// Leases over the shared counter (adapters/knex/fast/rate-limit-leases.ts), on a counter kept in
// memory with the database's rule (a write adds all it asks for or nothing) and a clock the
// test moves: how many writes a user's requests cost, what each answer reports, and that no
// process ever lets through more than the limits.

const internals = {

    // The counter row of each user, as the database keeps it, and the writes it took.
    store() {

        const rows = new Map<number, { minuteStart: number; minute: number; monthStart: number; month: number }>();
        const counts = { writes: 0 };
        const add = async ({ userId, windows, limits }: CounterRequest, count: number, refund: number): Promise<RateLimitUsage | null> => {

            counts.writes++;
            // A round trip: requests arriving meanwhile wait for it.
            await new Promise((resolve) => setImmediate(resolve));
            const row = rows.get(userId) ?? { minuteStart: windows.minuteStart, minute: 0, monthStart: windows.monthStart, month: 0 };
            const minute = (row.minuteStart === windows.minuteStart ? row.minute : 0) + count;
            const month = row.monthStart === windows.monthStart ? row.month + count - refund : count;
            if (minute > limits.perMinute || month > limits.perMonth) {
                return null;
            }

            rows.set(userId, { minuteStart: windows.minuteStart, minute, monthStart: windows.monthStart, month });
            return { minute, month };
        };

        const store: LeaseStore = {
            add,
            async addOne(request, refund): Promise<RateLimitOutcome> {

                const usage = await add(request, 1, refund);
                return usage ? { allowed: true, usage } : { allowed: false, exceeded: 'minute' };
            }
        };
        return { store, rows, counts };
    },

    spec: { perMinute: 100, perMonth: 200_000 } satisfies RateLimits,
    raised: { perMinute: 1_000_000, perMonth: 100_000_000 } satisfies RateLimits
};

describe('rate-limit leases', () => {

    const at = (iso: string) => windowsAt(new Date(iso));

    it('writes every request on its own under the spec\'s limits, one at a time, exactly as counted', async () => {

        const { store, rows, counts } = internals.store();
        let now = 0;
        const consume = leasedCounter(store, () => now);
        const windows = at('2026-05-10T10:00:00Z');
        for (let i = 1; i <= 100; i++) {
            now += 1;           // a request every millisecond: as fast as it gets
            expect(await consume({ userId: 1, windows, limits: internals.spec })).to.deep.equal({ allowed: true, usage: { minute: i, month: i } });
        }

        expect(counts.writes).to.equal(100);
        expect(rows.get(1)).to.include({ minute: 100, month: 100 });
        expect((await consume({ userId: 1, windows, limits: internals.spec })).allowed).to.equal(false);
    });

    it('shares one write among the requests that wait for it, reporting each its own count', async () => {

        const { store, counts } = internals.store();
        const consume = leasedCounter(store, () => 0);
        const windows = at('2026-05-10T10:00:00Z');
        const outcomes = await Promise.all(Array.from({ length: 10 }, () => consume({ userId: 1, windows, limits: internals.spec })));
        expect(counts.writes).to.equal(2);
        expect(
            outcomes.map((outcome) => outcome.allowed && outcome.usage.minute).sort((a, b) => Number(a) - Number(b))
        ).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it('takes ahead what a user sending many requests will send in the next second, with raised limits', async () => {

        const { store, rows, counts } = internals.store();
        let now = 0;
        const consume = leasedCounter(store, () => now);
        const windows = at('2026-05-10T10:00:00Z');
        for (let i = 1; i <= 1_000; i++) {
            now += 2;           // 500 requests a second
            expect(await consume({ userId: 1, windows, limits: internals.raised })).to.deep.equal({ allowed: true, usage: { minute: i, month: i } });
        }

        // A lease lasts about a second, 500 requests at this pace, and is capped at 50.
        expect(counts.writes).to.be.below(40);
        expect(rows.get(1)!.minute).to.be.within(1_000, 1_050);

        // 50 requests a second: a second's worth is the whole cap, one write per 50.
        const steady = internals.store();
        const steadyConsume = leasedCounter(steady.store, () => now);
        for (let i = 1; i <= 1_000; i++) {
            now += 20;
            await steadyConsume({ userId: 3, windows, limits: internals.raised });
        }

        expect(steady.counts.writes).to.be.below(30);
        expect(steady.rows.get(3)!.minute).to.be.within(1_000, 1_050);

        // A user sending a request every second is written one request at a time.
        const slow = internals.store();
        const slowConsume = leasedCounter(slow.store, () => now);
        for (let i = 0; i < 20; i++) {
            now += 1_000;
            await slowConsume({ userId: 2, windows, limits: internals.raised });
        }

        expect(slow.counts.writes).to.equal(20);
        expect(slow.rows.get(2)).to.include({ minute: 20, month: 20 });
    });

    it('gives what was left of a lease back to the month with the next minute\'s write', async () => {

        const { store, rows } = internals.store();
        let now = 0;
        const consume = leasedCounter(store, () => now);
        const first = at('2026-05-10T10:00:00Z');
        for (let i = 0; i < 300; i++) {
            now += 1;
            await consume({ userId: 1, windows: first, limits: internals.raised });
        }

        const taken = rows.get(1)!.month;
        expect(taken).to.be.above(300);

        // A minute later, after a pause long enough for a lease of one.
        now += 60_000;
        const next = await consume({ userId: 1, windows: at('2026-05-10T10:01:00Z'), limits: internals.raised });
        expect(next).to.deep.equal({ allowed: true, usage: { minute: 1, month: 301 } });
        expect(rows.get(1)).to.include({ minute: 1, month: 301 });
    });

    it('never lets two processes together through more than the limit', async () => {

        const { store, rows } = internals.store();
        let now = 0;
        const processes = [leasedCounter(store, () => now), leasedCounter(store, () => now)];
        const windows = at('2026-05-10T10:00:00Z');
        const limits = { perMinute: 20_000, perMonth: 100_000_000 };
        let allowed = 0;
        for (let i = 0; i < 25_000; i++) {
            now += 0.5;
            const outcome = await processes[i % 2]!({ userId: 1, windows, limits });
            allowed += outcome.allowed ? 1 : 0;
        }

        expect(rows.get(1)!.minute).to.be.at.most(20_000);
        // What the other process had taken and not used is at most 1 % of what was left.
        expect(allowed).to.be.within(20_000 - 200, 20_000);
    });
});
