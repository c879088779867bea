import { knexCliConfig } from './adapters/knex/connection.js';
import { migrationSource } from './adapters/knex/migrations/index.js';
import { loadConfig } from './app/config.js';

// The knex CLI on the service's database (DATABASE_URL, or the embedded default), with the
// service's own migration list, so that operators use the commands they know:
//   npm run knex -- migrate:status | migrate:latest | migrate:rollback | migrate:down
// (from a build without TypeScript tooling: npx knex --knexfile dist/knexfile.js …).
// `arcasync migrate` is the same as migrate:latest. See docs/operations.md.

export default knexCliConfig(loadConfig().databaseUrl, { migrationSource });
