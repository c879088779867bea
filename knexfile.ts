import type { Knex } from 'knex';
import { knexCliConfig } from './adapters/knex/connection.js';
import { knexCliMigrationSource } from './adapters/knex/migrations/index.js';
import { loadConfig } from './app/config.js';
import { knexCliRefusal } from './app/database.js';

// The knex CLI on the service's database (DATABASE_URL, or the embedded default), with the
// service's own migration list:
//   npm run knex -- migrate:status | migrate:latest
// (from a build without TypeScript tooling: npx knex --knexfile dist/knexfile.js …).
// `arcasync migrate` is the same as migrate:latest, `arcasync migrate --status` as
// migrate:status. migrate:rollback (a whole batch: on a normal installation every table) and
// migrate:down (one migration) are refused: neither asks nor says what it drops; `arcasync
// migrate --down` undoes one migration, says what it drops and asks. Another application's database, and a missing SQLite
// file for anything but migrating, are refused before knex connects. See docs/operations.md.

export default async (): Promise<Knex.Config> => {

    const config = loadConfig();
    const refused = await knexCliRefusal(config, process.argv.slice(2));
    if (refused) {
        // knex would print a thrown error as its stack, under an English heading.
        process.stderr.write(`Error: ${refused}\n`);
        process.exit(1);
    }

    return knexCliConfig(config.databaseUrl, { migrationSource: knexCliMigrationSource });
};
