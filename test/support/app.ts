import { composeApp } from '../../app/compose.js';
import type { App, ComposeOptions } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import type { TestDatabase } from './databases.js';

// The service composed on a fresh database of its own, for suites that drive the ports
// directly; close() closes the app and drops the database.
export const openApp = async (database: TestDatabase, options?: ComposeOptions): Promise<{ app: App; close(): Promise<void> }> => {

    const db = await database.create();
    const app = await composeApp(loadConfig({ DATABASE_URL: db.url }), options);
    return {
        app,
        async close() {

            await app.close();
            await db.release();
        }
    };
};
