import { expect } from 'chai';
import type { App } from '../../../app/compose.js';
import { windowsAt } from '../../../core/domain/rate-limit.js';
import { databaseOf, useApp } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import { seedAccount } from '../../support/fixtures.js';

// The database-backed counters: the rate limits under concurrency, where a user's very first
// requests race to create the counter row, and the throttles of sign-ins and registrations.

for (const database of testDatabases()) {

    describe(`rate-limit and throttle counters (${database.name})`, () => {

        let app: App;
        useApp(database, (opened) => (app = opened), { pool: { max: 10 } });

        it('lets every one of a new user\'s concurrent first requests through when under the limit', async () => {

            const { userId } = await seedAccount(app.ports);
            const windows = windowsAt(new Date('2026-05-10T10:00:30Z'));
            const outcomes = await Promise.all(
                Array.from({ length: 40 }, () => app.ports.rateLimitCounter.consume(userId, windows, { perMinute: 1000, perMonth: 100_000 }))
            );
            expect(outcomes.filter((outcome) => outcome.allowed)).to.have.length(40);
        });

        it('lets exactly the limit through when a new user\'s first requests exceed it', async () => {

            const { userId } = await seedAccount(app.ports);
            const windows = windowsAt(new Date('2026-05-10T10:00:30Z'));
            const outcomes = await Promise.all(
                Array.from({ length: 40 }, () => app.ports.rateLimitCounter.consume(userId, windows, { perMinute: 15, perMonth: 100_000 }))
            );
            expect(outcomes.filter((outcome) => outcome.allowed)).to.have.length(15);
            expect(outcomes.filter((outcome) => !outcome.allowed)).to.deep.include({ allowed: false, exceeded: 'minute' });
        });

        it('answers both counts after the request, however large the limits let them grow', async () => {

            const { userId } = await seedAccount(app.ports);
            const windows = windowsAt(new Date('2026-05-10T10:00:30Z'));
            const limits = { perMinute: 2_147_483_647, perMonth: 2_147_483_647 };
            expect(await app.ports.rateLimitCounter.consume(userId, windows, limits)).to.deep.equal({ allowed: true, usage: { minute: 1, month: 1 } });

            // Counts near the columns' 32-bit bound, in the current windows.
            await databaseOf(app)('rate_limits').where({ user_id: userId }).update({ minute_count: 2_000_000_000, month_count: 2_100_000_000 });
            expect(await app.ports.rateLimitCounter.consume(userId, windows, limits)).to.deep.equal({
                allowed: true,
                usage: { minute: 2_000_000_001, month: 2_100_000_001 }
            });

            // A new minute starts its count again; the month's goes on.
            const next = windowsAt(new Date('2026-05-10T10:01:30Z'));
            expect(await app.ports.rateLimitCounter.consume(userId, next, limits)).to.deep.equal({ allowed: true, usage: { minute: 1, month: 2_100_000_002 } });
        });

        it('lets through exactly what is left of the limit when concurrent requests would pass it', async () => {

            const { userId } = await seedAccount(app.ports);
            const windows = windowsAt(new Date('2026-05-10T10:00:30Z'));
            const limits = { perMinute: 15, perMonth: 100_000 };
            for (let i = 0; i < 10; i++) {
                expect(await app.ports.rateLimitCounter.consume(userId, windows, limits)).to.deep.equal({
                    allowed: true,
                    usage: { minute: i + 1, month: i + 1 }
                });
            }

            // Eight at once fit under the limit as a number, but only five are left.
            const outcomes = await Promise.all(Array.from({ length: 8 }, () => app.ports.rateLimitCounter.consume(userId, windows, limits)));
            expect(outcomes.filter((outcome) => outcome.allowed)).to.have.length(5);
            const row = await databaseOf(app)('rate_limits').where({ user_id: userId }).first();
            expect(Number(row.minute_count)).to.equal(15);
        });

        it('counts concurrent requests of several users each against its own user', async () => {

            const users = await Promise.all([1, 2, 3].map(() => seedAccount(app.ports)));
            const windows = windowsAt(new Date('2026-05-10T10:00:30Z'));
            // The spec's per-minute limit: nothing is taken ahead (rate-limit-leases.ts).
            const limits = { perMinute: 100, perMonth: 100_000 };
            await Promise.all(
                users.flatMap((user, i) => Array.from({ length: 4 + i * 3 }, () => app.ports.rateLimitCounter.consume(user.userId, windows, limits)))
            );

            const counts = [];
            for (const user of users) {
                const row = await databaseOf(app)('rate_limits').where({ user_id: user.userId }).first();
                counts.push([Number(row.minute_count), Number(row.month_count)]);
            }

            expect(counts).to.deep.equal([[4, 4], [7, 7], [10, 10]]);
        });

        it('counts up to the limit per window, and forgets subjects whose window ended over a day ago', async () => {

            const now = Math.floor(Date.UTC(2026, 4, 10, 10) / 1000);
            for (let i = 0; i < 3; i++) {
                expect(await app.ports.throttles.tryCount('signin:email:ana@example.com', now, 3)).to.equal(true);
            }

            expect(await app.ports.throttles.tryCount('signin:email:ana@example.com', now, 3)).to.equal(false);
            expect(await app.ports.throttles.tryCount('signin:email:ana@example.com', now + 900, 3)).to.equal(true);

            // Two days later, a new subject's first attempt clears the rows nobody needs.
            const later = now + 2 * 24 * 60 * 60;
            expect(await app.ports.throttles.tryCount('register:address:203.0.113.7', later, 20)).to.equal(true);
            expect(await databaseOf(app)('throttles').pluck('subject')).to.deep.equal(['register:address:203.0.113.7']);
        });
    });
}
