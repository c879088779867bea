import type { Command } from 'commander';
import { loginPacerOf, syncDeps } from '../../../app/sync.js';
import { arcaDay } from '../../../core/domain/arca-day.js';
import { parseCuit } from '../../../core/domain/cuit.js';
import { messages } from '../../../core/domain/messages.js';
import { findAccountTarget } from '../../../core/use-cases/sync/find-sync-targets.js';
import type { KeyLease } from '../../../core/use-cases/sync/key-sessions.js';
import { createKeySessions } from '../../../core/use-cases/sync/key-sessions.js';
import type { ProbeNotTried } from '../../../core/use-cases/sync/log-in.js';
import { logInForProbe } from '../../../core/use-cases/sync/log-in.js';
import { keyLoginsToday } from '../../../core/use-cases/sync/sync-status.js';
import type { CliIo } from '../../io.js';
import { lazy } from '../../lazy.js';
import { cliMessages } from '../../messages.js';
import { exitCodes, failure, outputFor, parseId, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';
import { describeKeyLogins } from '../sync/describe.js';

// `arcasync authority probe --cuit C`: the stored key of C walked through every step against
// the configured authority, nothing stored, each step printed with its timing and verdict.
export const addAuthorityProbe = (authority: Command, io: CliIo): void => {

    authority.command('probe')
        .description('recorre con la clave guardada de un CUIT cada paso de ARCA, sin guardar nada, e informa tiempo y resultado de cada uno')
        .requiredOption('--cuit <cuit>', 'CUIT a probar (una persona jurídica usa la clave de su representante)')
        .option('--account <id>', 'la cuenta cuya clave se prueba (obligatoria si varias cuentas gestionan el CUIT)')
        .action(async (options: { cuit: string; account?: string }, command: Command) => {

            const output = outputFor(command, io);
            const [{ probeKey }, { authorityClientOf }, { checkAuthorityFor }] = await Promise.all([lazy.authority(), lazy.compose(), lazy.worker()]);
            const cuit = parseCuit(options.cuit);
            if (!cuit) {
                throw failure('--cuit debe ser una CUIT válida');
            }

            const accountId = options.account === undefined ? undefined : parseId(options.account);

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
                const authorityClient = authorityClientOf(app, {
                    onExchange: (exchange) => output.print(`  ${visible(exchange.method)} ${visible(exchange.host)}${visible(exchange.path)} -> HTTP ${exchange.status} (${exchange.ms} ms)`, { type: 'request', ...exchange })
                });
                const deps = { ...syncDeps(app, authorityClient), loginPacer: loginPacerOf(app) };
                const sessions = createKeySessions(authorityClient, deps.clock, {
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
                    await authorityClient.close();
                }
            });
            if (!ok) {
                throw failure('Algún paso de ARCA falló (ver arriba).', exitCodes.error);
            }
        });
};
