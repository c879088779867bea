import type { Command } from 'commander';
import type { SimulatedFailures } from '../../app/authority.js';
import { defaultFesMinGapMs } from '../../app/simulated-defaults.js';
import type { KeyLease } from '../../core/use-cases/sync/key-sessions.js';
import type { ProbeNotTried } from '../../core/use-cases/sync/log-in.js';
import type { CliIo } from '../io.js';
import { stopRequested } from '../io.js';
import { cliMessages } from '../messages.js';
import { visible } from '../terminal-text.js';
import { exitCodes, failure, outputFor, parseId, withApp } from '../run.js';

// arcasync authority simulate: the simulated authority alone, for AUTHORITY_URL of servers and
// workers run apart (README.md, The command line). Runs until interrupted.
// arcasync authority probe --cuit C: the stored key of C walked through every step against the
// configured authority, nothing stored, each step printed with its timing and verdict.

const internals = {
    share(name: string, value: string | undefined): number | undefined {

        if (value === undefined) {
            return undefined;
        }

        const share = Number(value);
        if (!Number.isFinite(share) || share < 0 || share > 1) {
            throw failure(`${name} debe ser una proporción entre 0 y 1`);
        }

        return share;
    },

    integer(name: string, value: string | undefined, min: number): number | undefined {

        if (value === undefined) {
            return undefined;
        }

        const number = Number(value);
        if (!Number.isInteger(number) || number < min || number > 65_535) {
            throw failure(`${name} debe ser un entero entre ${min} y 65535`);
        }

        return number;
    }
};

interface SimulateOptions {
    port?: string;
    latency?: string;
    fail5xx?: string;
    failTimeout?: string;
    failMalformed?: string;
    csvGeneration?: string;
    fesGapMs?: string;
    captchaAfter?: string;
    jwtTtlMs?: string;
}

export const registerAuthorityCommands = (program: Command, io: CliIo): void => {

    const authority = program.command('authority').description('la autoridad fiscal (ARCA)');

    authority.command('probe')
        .description('recorre con la clave guardada de un CUIT cada paso de ARCA, sin guardar nada, e informa tiempo y resultado de cada uno')
        .requiredOption('--cuit <cuit>', 'CUIT a probar (una persona jurídica usa la clave de su representante)')
        .option('--account <id>', 'la cuenta cuya clave se prueba (obligatoria si varias cuentas gestionan el CUIT)')
        .action(async (options: { cuit: string; account?: string }, command: Command) => {

            const output = outputFor(command, io);
            const [
                { parseCuit },
                { loginPacerOf, syncDeps },
                { probeKey },
                { authorityClientOf },
                { keyLoginsToday },
                { describeKeyLogins },
                { createKeySessions },
                { logInForProbe },
                { messages },
                { arcaDay },
                { findAccountTarget }
            ] = await Promise.all([
                import('../../core/domain/cuit.js'), import('../../app/sync.js'), import('../../app/authority.js'), import('../../app/compose.js'),
                import('../../core/use-cases/sync/sync-status.js'), import('./sync.js'), import('../../core/use-cases/sync/key-sessions.js'),
                import('../../core/use-cases/sync/log-in.js'), import('../../core/domain/messages.js'),
                import('../../core/domain/arca-day.js'), import('../../core/use-cases/sync/find-sync-targets.js')
            ]);
            const cuit = parseCuit(options.cuit);
            if (!cuit) {
                throw failure('--cuit debe ser una CUIT válida');
            }

            const accountId = options.account === undefined ? undefined : parseId(options.account);

            const { checkAuthorityFor } = await import('../../app/worker.js');
            const ok = await withApp(io, async (app) => {

                await checkAuthorityFor(app);
                // One account's client: its key is that account's (several accounts need --account).
                const { client } = await findAccountTarget({ syncTargets: app.ports.syncTargets, accounts: app.ports.accounts }, cuit, accountId);
                const target = await app.ports.syncTargets.find(client.id);
                if (!target || !target.loginCuit || !target.sealedKey) {
                    throw failure(target ? 'El CUIT no tiene una clave fiscal con la que ingresar.' : 'No existe un cliente con ese CUIT.');
                }

                // The key's logins today across the fleet, before the probe adds its own.
                const logins = await keyLoginsToday(app.ports.loginLedger, target.loginCuit, app.ports.clock.now().getTime());
                output.print(`Antes de la prueba, ${describeKeyLogins(logins)}`, { type: 'logins', ...logins });
                // The probe's client honours the fleet's host blocks and caps; its login goes
                // through the ledger's gate like a sync's (docs/scaling.md).
                const authority = authorityClientOf(app, {
                    onExchange: (exchange) => output.print(`  ${visible(exchange.method)} ${visible(exchange.host)}${visible(exchange.path)} -> HTTP ${exchange.status} (${exchange.ms} ms)`, { type: 'request', ...exchange })
                });
                const deps = { ...syncDeps(app, authority), loginPacer: loginPacerOf(app) };
                const sessions = createKeySessions(authority, deps.clock, {
                    ledger: deps.loginLedger, pacer: deps.loginPacer, maxRelogins: deps.maxRelogins, weeklyWrongCap: deps.weeklyWrongCap
                });
                const gate: { notTried?: ProbeNotTried; lease?: KeyLease } = {};
                try {
                    const probed = await probeKey({
                        logIn: async () => {

                            const login = await logInForProbe(deps, target, sessions);
                            if ('notTried' in login) {
                                gate.notTried = login.notTried;
                                return null;
                            }

                            if ('lease' in login) {
                                gate.lease = login.lease;
                            }

                            return login;
                        },
                        cuit,
                        today: app.ports.clock.now().toISOString().slice(0, 10),
                        person: target.tipo === 'persona-fisica'
                    }, (step) => output.print(`${step.ok ? 'OK   ' : 'FALLA'} ${step.step} (${step.ms} ms): ${visible(step.verdict)}`, { type: 'step', ...step }));
                    if (probed === null && gate.notTried) {
                        const refused = gate.notTried;
                        const line = cliMessages.probeNotTried({
                            keyCuit: refused.keyCuit ?? target.loginCuit,
                            day: refused.day,
                            reason: refused.reason,
                            what: refused.kind === null ? null : messages.authority[refused.kind as keyof typeof messages.authority] ?? visible(refused.kind),
                            retryDay: refused.retryAt === null ? null : arcaDay(refused.retryAt),
                            relogins: deps.maxRelogins
                        });
                        if (output.json) {
                            output.print(line, {
                                type: 'not_tried', ...refused, retryAt: refused.retryAt === null ? null : new Date(refused.retryAt).toISOString()
                            });
                        }

                        throw failure(line, exitCodes.error);
                    }

                    return probed;
                }
                finally {
                    gate.lease?.release();
                    await sessions.close();
                    await authority.close();
                }
            });
            if (!ok) {
                throw failure('Algún paso de ARCA falló (ver arriba).', exitCodes.error);
            }
        });

    authority.command('simulate')
        .description('sirve la autoridad simulada en 127.0.0.1 (apuntá AUTHORITY_URL a la dirección que imprime)')
        .option('--port <port>', 'puerto (0: uno libre)', '0')
        .option('--latency <ms>', 'demora agregada a cada respuesta, en milisegundos')
        .option('--fail-5xx <share>', 'proporción de respuestas 500/503')
        .option('--fail-timeout <share>', 'proporción de pedidos que no se responden')
        .option('--fail-malformed <share>', 'proporción de datos ilegibles')
        .option('--csv-generation <n>', 'generación del CSV de Mis Comprobantes (1, 2 o 3; por omisión, la de la fecha)')
        .option('--fes-gap-ms <ms>', `Mis Comprobantes responde "BL…" a pedidos más seguidos que esto (por omisión ${defaultFesMinGapMs}; el real, unos 1200)`)
        .option('--captcha-after <n>', 'pide CAPTCHA tras n ingresos de una CUIT en 10 minutos')
        .option('--jwt-ttl-ms <ms>', 'vida del jwt del ingreso (por omisión 10000)')
        .action(async (options: SimulateOptions, command: Command) => {

            const output = outputFor(command, io);
            const failures: SimulatedFailures = {};
            const serverError = internals.share('--fail-5xx', options.fail5xx);
            const timeout = internals.share('--fail-timeout', options.failTimeout);
            const malformed = internals.share('--fail-malformed', options.failMalformed);
            if (serverError !== undefined) {
                failures.serverError = serverError;
            }

            if (timeout !== undefined) {
                failures.timeout = timeout;
            }

            if (malformed !== undefined) {
                failures.malformed = malformed;
            }

            const generation = options.csvGeneration === undefined ? undefined : Number(options.csvGeneration);
            if (generation !== undefined && generation !== 1 && generation !== 2 && generation !== 3) {
                throw failure('--csv-generation debe ser 1, 2 o 3');
            }

            const fesMinGapMs = internals.integer('--fes-gap-ms', options.fesGapMs, 0);
            const captchaAfter = internals.integer('--captcha-after', options.captchaAfter, 1);
            const jwtTtlMs = internals.integer('--jwt-ttl-ms', options.jwtTtlMs, 1);

            const { startSimulatedAuthority } = await import('../../app/authority.js');
            const stopping = stopRequested(io);
            const simulated = await startSimulatedAuthority({
                port: internals.integer('--port', options.port, 0) ?? 0,
                latencyMs: internals.integer('--latency', options.latency, 0) ?? 0,
                failures,
                ...(generation === undefined ? {} : { csvGeneration: generation }),
                ...(fesMinGapMs === undefined ? {} : { fesMinGapMs }),
                ...(captchaAfter === undefined ? {} : { captchaAfter: { logins: captchaAfter, windowMs: 10 * 60_000 } }),
                ...(jwtTtlMs === undefined ? {} : { jwtTtlMs })
            });
            output.print(`Autoridad simulada en ${simulated.url}\nUsala con AUTHORITY=simulated AUTHORITY_URL=${simulated.url}`, { url: simulated.url, port: simulated.port });
            await stopping;
            await simulated.stop();
        });
};
