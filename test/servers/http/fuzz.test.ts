import { expect } from 'chai';
import type { ServeProcess } from '../../support/cli.js';
import { startServeProcess } from '../../support/cli.js';
import { testDatabases } from '../../support/databases.js';
import { addClient, seedAccount, seedUser, tagClient } from '../../support/fixtures.js';
import type { FuzzContext, FuzzRequest } from '../../support/fuzz/requests.js';
import { fuzzRequest, isSpanishMessage } from '../../support/fuzz/requests.js';
import { seededRandom } from '../../support/fuzz/random.js';
import type { RawExchange } from '../../support/raw-http.js';
import { rawExchange } from '../../support/raw-http.js';
import { logLeaks } from '../../support/run-log.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';

// The fuzz suite: FUZZ_REQUESTS (10,000 by default) generated requests, the same for a given
// FUZZ_SEED, over raw sockets to `arcasync serve` in its own process, on every database. The
// process never exits (a crash is counted and the server started again, so that one run
// tells how many), nothing answers 5xx, every error outside the OAuth protocol endpoints is
// exactly `{"error": "<Spanish>"}`, and the log holds no token, key or password in any form.

const internals = {
    seed: Number(process.env.FUZZ_SEED || 20261123),
    count: Number(process.env.FUZZ_REQUESTS || 10_000),
    parallel: 6,

    // Endpoints of the OAuth protocol, whose error bodies RFC 6749 and OpenID define
    // (`error`, `error_description`) or which answer HTML pages.
    protocolPath: /^\/(oauth\/|\.well-known\/(openid-configuration|oauth-authorization-server))/,

    // What is wrong with one request's answers, if anything.
    problems(request: FuzzRequest, exchange: RawExchange): string[] {

        const where = `${request.kind} ${request.method} ${request.path.slice(0, 80)}`;
        if (!exchange.responses.length) {
            // A request cut short may be dropped with the connection; a whole one may not.
            return request.truncated ? [] : [`${where}: sin respuesta`];
        }

        const problems: string[] = [];
        for (const response of exchange.responses) {
            if (response.status >= 500) {
                problems.push(`${where}: ${response.status} ${response.body.toString().slice(0, 200)}`);
            }

            if (response.status === 206) {
                problems.push(`${where}: 206, una parte del cuerpo`);
            }

            if (response.status < 400 || request.method === 'HEAD' || internals.protocolPath.test(request.path)) {
                continue;
            }

            let body: unknown;
            try {
                body = JSON.parse(response.body.toString());
            }
            catch {
                body = undefined;
            }

            const keys = body !== null && typeof body === 'object' ? Object.keys(body) : [];
            if (keys.length !== 1 || keys[0] !== 'error' || !isSpanishMessage((body as { error: unknown }).error)) {
                problems.push(`${where}: ${response.status} ${response.headers['content-type'] ?? 'sin tipo'} ${response.body.toString().slice(0, 200)}`);
            }
        }

        return problems;
    }
};

for (const database of testDatabases()) {

    describe(`fuzz: generated requests over raw sockets (${database.name})`, () => {

        let server: TestServer;
        let serve: ServeProcess;
        let context: FuzzContext;
        const env = { LOG_LEVEL: 'debug', AUTHORITY: 'simulated', RATE_LIMIT_PER_MINUTE: '100000000', RATE_LIMIT_PER_MONTH: '1000000000' };

        before(async function () {

            this.timeout(60_000);
            server = await startTestServer(database, { env: writeServerEnv });
            const writer = await seedAccount(server.app.ports, { writing: true });
            const reader = await seedUser(server.app.ports, writer.accountId, 'member');
            const cuits = ['20123456786', '27234567891', '30712345674'];
            for (const cuit of cuits) {
                await addClient(server.app.ports, writer.accountId, { cuit });
            }

            await tagClient(server.app.ports, writer.accountId, cuits[0]!, 'Mensuales');
            const random = seededRandom(internals.seed ^ 0x5eed);
            context = {
                writer: writer.token,
                reader: reader.token,
                cuits: [...cuits, '20-12345678-6'],
                claves: Array.from({ length: 8 }, () => `Kf${random.word(14)}`),
                passwords: Array.from({ length: 4 }, () => `Pw${random.word(14)}`)
            };
            serve = await startServeProcess(server.app.config.databaseUrl, env);
        });

        after(async () => {

            await serve?.stop();
            await server?.stop();
        });

        it(`never ends the process, never answers 5xx, answers every error in Spanish JSON and logs no secret (${internals.count} requests)`, async function () {

            this.timeout(600_000);
            const random = seededRandom(internals.seed);
            const requests = Array.from({ length: internals.count }, () => fuzzRequest(random, context));
            const statuses = new Map<string, number>();
            const problems: string[] = [];
            const logs: string[] = [];
            let crashes = 0;
            let restarting: Promise<ServeProcess> | null = null;

            // A server that exited is counted and started again on the same database.
            const serving = (): Promise<ServeProcess> | ServeProcess => {

                if (restarting) {
                    return restarting;
                }

                if (serve.child.exitCode === null && serve.child.signalCode === null) {
                    return serve;
                }

                crashes++;
                logs.push(serve.log());
                restarting = startServeProcess(server.app.config.databaseUrl, env).then((started) => {

                    serve = started;
                    restarting = null;
                    return started;
                });
                return restarting;
            };

            const started = Date.now();
            let next = 0;
            const worker = async () => {

                while (next < requests.length) {
                    const request = requests[next++]!;
                    const target = await serving();
                    const exchange = await rawExchange(Number(new URL(target.url).port), request.bytes, {
                        halfClose: request.truncated,
                        method: request.method,
                        answers: request.answers,
                        timeoutMs: 15_000
                    });
                    const seen = exchange.responses.length ? exchange.responses.map((response) => String(response.status)) : ['sin respuesta'];
                    for (const status of seen) {
                        statuses.set(status, (statuses.get(status) ?? 0) + 1);
                    }

                    problems.push(...internals.problems(request, exchange));
                }
            };

            await Promise.all(Array.from({ length: internals.parallel }, worker));
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            const final = await serving();
            logs.push(final.log());

            const leaks = logLeaks(logs.join('\n'), [context.writer, context.reader, ...context.claves, ...context.passwords]);
            const tally = [...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([status, count]) => `${status}: ${count}`).join(', ');
            process.stdout.write(`      fuzz (${database.name}): semilla ${internals.seed} (FUZZ_SEED), ${requests.length} solicitudes en ${seconds} s; caídas del proceso: ${crashes}; estados: ${tally}; problemas: ${problems.length}\n`);

            expect(crashes, 'caídas del proceso').to.equal(0);
            expect(problems.slice(0, 25), `${problems.length} respuestas fuera del contrato`).to.deep.equal([]);
            expect(leaks, 'secretos en el log').to.deep.equal([]);
        });
    });
}
