import { composeApp } from '../app/compose.js';
import { loadConfig } from '../app/config.js';
import { createLogger } from '../app/logger.js';
import { createHttpServer } from '../servers/http/server.js';

// The bench's own server process: the app composed exactly like `arcasync serve`, plus one
// bare route (the ceiling: hapi's own cost with no auth and no database). Prints its URL as
// one JSON line on stdout, then serves until SIGTERM.

const app = await composeApp(loadConfig());
const server = await createHttpServer(app.ports, { host: '127.0.0.1', port: 0, publicUrl: app.config.publicUrl, logger: createLogger({ level: app.config.logLevel }) });
server.route({
    method: 'GET',
    path: '/bench/bare',
    options: { auth: false },
    handler: () => ({ ok: true, service: 'arcasync' })
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
