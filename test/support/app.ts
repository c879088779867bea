import { composeApp, testOnlyDatabaseOf } from '../../app/compose.js';
import type { App, ComposeOptions } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import type { TestDatabase } from './databases.js';

// The suites' portfolios are made-up CUITs, most with a wrong check digit: the check that keeps
// them from ARCA is off unless a suite turns it on (test/tenants.test.ts does).
export const testEnv: NodeJS.ProcessEnv = { SYNC_CHECK_DIGITS: '0' };

// The service composed on a fresh database of its own, for suites that drive the ports
// directly; close() closes the app and drops the database.
export const openApp = async (database: TestDatabase, options?: ComposeOptions, env: NodeJS.ProcessEnv = {}): Promise<{ app: App; close(): Promise<void> }> => {

    const db = await database.create({ migrated: options?.migrate !== false });
    const app = await composeApp(loadConfig({ ...testEnv, ...env, DATABASE_URL: db.url }), options);
    return {
        app,
        async close() {

            await app.close();
            await db.release();
        }
    };
};

// The same for a whole mocha suite: opened before its first test (handed to `opened`, and
// before any `before` hook the suite adds after this call), closed after its last.
export const useApp = (database: TestDatabase, opened: (app: App) => void, options?: ComposeOptions): void => {

    let close: () => Promise<void>;
    before(async () => {

        const handle = await openApp(database, options);
        close = handle.close;
        opened(handle.app);
    });

    after(async () => {

        await close?.();
    });
};

// The app's database, for a test's setup and its assertions on stored rows (App itself has
// none: the service reaches it through its ports only).
export const databaseOf = testOnlyDatabaseOf;
