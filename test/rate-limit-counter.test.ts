import { expect } from 'chai';
import { composeApp } from '../app/compose.js';
import type { App } from '../app/compose.js';
import { loadConfig } from '../app/config.js';
import { windowsAt } from '../core/domain/rate-limit.js';
import { testDatabases } from './support/databases.js';
import { seedAccount } from './support/fixtures.js';

// The database-backed counter under concurrency, where a user's very first requests race
// to create the counter row.

for (const database of testDatabases()) {

    describe(`rate-limit counter under concurrency (${database.name})`, () => {

        let app: App;
        let release: () => Promise<void>;

        before(async () => {

            const db = await database.create();
            release = db.release;
            app = await composeApp(loadConfig({ DATABASE_URL: db.url }), { pool: { max: 10 } });
        });

        after(async () => {

            await app.close();
            await release();
        });

        it('lets every one of a new user\'s concurrent first requests through when under the limit', async () => {

            const { userId } = await seedAccount(app.ports);
            const windows = windowsAt(new Date('2026-05-10T10:00:30Z'));
            const outcomes = await Promise.all(Array.from({ length: 40 }, () => app.ports.rateLimitCounter.consume(userId, windows, { perMinute: 1000, perMonth: 100_000 })));
            expect(outcomes.filter((outcome) => outcome.allowed)).to.have.length(40);
        });

        it('lets exactly the limit through when a new user\'s first requests exceed it', async () => {

            const { userId } = await seedAccount(app.ports);
            const windows = windowsAt(new Date('2026-05-10T10:00:30Z'));
            const outcomes = await Promise.all(Array.from({ length: 40 }, () => app.ports.rateLimitCounter.consume(userId, windows, { perMinute: 15, perMonth: 100_000 })));
            expect(outcomes.filter((outcome) => outcome.allowed)).to.have.length(15);
            expect(outcomes.filter((outcome) => !outcome.allowed)).to.deep.include({ allowed: false, exceeded: 'minute' });
        });
    });
}
