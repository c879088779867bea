import { composeApp } from '../app/compose.js';
import { loadConfig } from '../app/config.js';
import { createLogger } from '../app/logger.js';
import { createHttpServer } from '../servers/http/server.js';
import { gcMsSoFar } from './gc-time.js';
import { statementsSent } from './statement-count.js';

// The bench's own server process: the app composed exactly like `arcasync serve`, plus one
// bare route (the ceiling: hapi's own cost with no auth and no database) and the read cache's
// hit and miss counts, the statements sent to the database and the time spent in V8's
// collections (GET /bench/counts). It runs as production does: compiled by tsc (`npm run
// bench:api` builds it into dist/bench/, beside the service's dist/) and started by plain
// node, without tsx's loader, whose hooks thread alone added ~40 MB to the RSS measured.
// Prints its URL as one JSON line on stdout, then serves until SIGTERM.

const app = await composeApp(loadConfig());

// How many reads the read cache answered, for the bench to print its hit rate: whole answers
// apart from a client's sync dates (core/use-cases/client-synced-at.ts), which every page of
// a client reads.
const cache = app.ports.readCache;
const cacheCounts = { hits: 0, misses: 0, syncDateHits: 0, syncDateMisses: 0 };
app.ports.readCache = {
    get<T>(key: string, version: number) {

        const value = cache.get<T>(key, version);
        const syncDates = key.startsWith('synced-at:');
        cacheCounts[value === undefined ? (syncDates ? 'syncDateMisses' : 'misses') : (syncDates ? 'syncDateHits' : 'hits')]++;
        return value;
    },
    set: (key, version, value) => cache.set(key, version, value)
};

const server = await createHttpServer(app.ports, {
    host: '127.0.0.1',
    port: 0,
    publicUrl: app.config.publicUrl,
    logger: createLogger({ level: app.config.logLevel })
});
server.route({
    method: 'GET',
    path: '/bench/bare',
    options: { auth: false },
    handler: () => ({ ok: true, service: 'arcasync' })
});

server.route({
    method: 'GET',
    path: '/bench/counts',
    options: { auth: false },
    handler: () => ({ ...cacheCounts, statements: statementsSent(), gcMs: gcMsSoFar() })
});

await server.start();

const stop = async () => {

    await server.stop({ timeout: 5_000 });
    await app.close();
    process.exit(0);
};

process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdout.write(`${JSON.stringify({ url: server.info.uri, pid: process.pid })}\n`);
