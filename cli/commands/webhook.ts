import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { failure, outputFor, parseId, withApp } from '../run.js';
import { cliLabels, cliMessages, labelOf } from '../messages.js';
import { visible } from '../terminal-text.js';

// Staff's signed webhooks per account (README: States and webhooks): the API stays read-only.
// The signing secret is printed once, by create and rotate-secret.

const internals = {
    manage: () => import('../../core/use-cases/webhooks/manage.js'),
    app: () => import('../../app/webhooks.js'),
    when: (at: number | null): string => (at === null ? '-' : new Date(at).toISOString()),
    // The endpoint's circuit breaker, when it set the endpoint aside (README: States and webhooks).
    breaker: (entry: { openUntil: number | null; consecutiveFailures: number }): string => (entry.openUntil === null
        ? ''
        : `  en pausa hasta ${internals.when(entry.openUntil)} (${entry.consecutiveFailures} ${entry.consecutiveFailures === 1 ? 'falla seguida' : 'fallas seguidas'})`),
    limit(raw: string | undefined): number {

        const value = raw === undefined ? 50 : Number(raw);
        return Number.isInteger(value) && value >= 1 && value <= 1000 ? value : 50;
    }
};

export const registerWebhookCommands = (program: Command, io: CliIo): void => {

    const webhook = program.command('webhook').description('webhooks firmados de una cuenta: eventos de sincronización, salud, DFE y deuda');

    webhook.command('create')
        .description('registra un endpoint; muestra el secreto de firma una sola vez')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--url <url>', 'https://… (http solo a la máquina local con WEBHOOK_ALLOW_HTTP_LOOPBACK=1)')
        .option('--events <tipos>', 'tipos separados por coma (todos si se omite): sincronizacion.completada, salud.cambio, dfe.nuevas, sct.deuda_cambio')
        .action(async (options: { account: string; url: string; events?: string }, command: Command) => {

            const [{ createWebhook }, { webhookDeps, targetPolicyOf }] = await Promise.all([internals.manage(), internals.app()]);
            const result = await withApp(io, async (app) => createWebhook(webhookDeps(app), {
                accountId: parseId(options.account),
                url: options.url,
                events: options.events
            }, targetPolicyOf(app)));
            outputFor(command, io).print([
                `Webhook ${result.id} creado: ${visible(result.url)} (eventos: ${visible(result.events)}).`,
                `Secreto de firma (se muestra solo esta vez): ${result.secret}`
            ].join('\n'), result);
        });

    webhook.command('list')
        .description('los endpoints (de una cuenta o de todas): id, cuenta, URL, eventos, estado')
        .option('--account <id>', 'cuenta')
        .action(async (options: { account?: string }, command: Command) => {

            const { listWebhooks } = await internals.manage();
            const result = await withApp(io, async (app) => listWebhooks(app.ports, {
                accountId: options.account === undefined ? undefined : parseId(options.account)
            }));
            const lines = result.endpoints.map((entry) => `  ${entry.id}  cuenta ${entry.accountId}  ${visible(entry.url)}  eventos: ${visible(entry.events)}  ${entry.disabledAt === null ? 'activo' : `deshabilitado ${internals.when(entry.disabledAt)}`}${
                internals.breaker(entry)}`);
            outputFor(command, io).print(lines.join('\n') || '  (sin webhooks)', result);
        });

    webhook.command('disable <id>')
        .description('deja de enviar eventos al endpoint (lo pendiente se da por fallido)')
        .action(async (id: string, _options: object, command: Command) => {

            const { disableWebhook } = await internals.manage();
            const result = await withApp(io, async (app) => disableWebhook(app.ports, { id: parseId(id) }));
            outputFor(command, io).print(`Webhook ${result.id} deshabilitado.`, result);
        });

    webhook.command('rotate-secret <id>')
        .description('genera un secreto de firma nuevo (se muestra solo esta vez); el anterior deja de firmar')
        .action(async (id: string, _options: object, command: Command) => {

            const { rotateWebhookSecret } = await internals.manage();
            const result = await withApp(io, async (app) => rotateWebhookSecret(app.ports, { id: parseId(id) }));
            outputFor(command, io).print(`Secreto de firma nuevo del webhook ${result.id} (se muestra solo esta vez): ${result.secret}`, result);
        });

    webhook.command('test <id>')
        .description('envía ahora un evento de prueba firmado al endpoint')
        .action(async (id: string, _options: object, command: Command) => {

            const [{ enqueueTestEvent, listDeliveries }, { webhookDeps, deliveryOptionsOf }, { deliverEndpointNow }] = await Promise.all(
                [internals.manage(), internals.app(), import('../../core/use-cases/webhooks/deliver.js')]
            );
            const result = await withApp(io, async (app) => {

                const queued = await enqueueTestEvent(app.ports, { id: parseId(id) });
                await deliverEndpointNow(webhookDeps(app), deliveryOptionsOf(app), queued.id, queued.eventId);
                const delivery = (await listDeliveries(app.ports, {
                    endpointId: queued.id,
                    limit: 50
                })).deliveries.find((entry) => entry.eventId === queued.eventId)!;
                return { ...queued, status: delivery.status, httpStatus: delivery.lastStatus, error: delivery.lastError };
            });
            const output = outputFor(command, io);
            const line = cliMessages.webhookTest(result);
            if (result.status === 'delivered') {
                output.print(line, result);
                return;
            }

            // The receiver did not answer 2xx: a failed command (scripts see it), its line on
            // stderr; --json still prints the delivery's state.
            if (output.json) {
                output.print(line, result);
            }

            throw failure(line);
        });

    webhook.command('deliveries')
        .description('los intentos de entrega, del más reciente al más antiguo')
        .option('--endpoint <id>', 'un endpoint')
        .option('--account <id>', 'una cuenta')
        .option('--limit <n>', 'cuántos (50)')
        .action(async (options: { endpoint?: string; account?: string; limit?: string }, command: Command) => {

            const { listDeliveries } = await internals.manage();
            const result = await withApp(io, async (app) => listDeliveries(app.ports, {
                endpointId: options.endpoint === undefined ? undefined : parseId(options.endpoint),
                accountId: options.account === undefined ? undefined : parseId(options.account),
                limit: internals.limit(options.limit)
            }));
            const lines = result.deliveries.map((entry) => `  ${entry.eventId}  ${visible(entry.type)}  webhook ${entry.endpointId}  ${labelOf(cliLabels.delivery, entry.status)}  intentos ${entry.attempts}` +
                `${entry.lastStatus === null ? '' : `  respuesta ${entry.lastStatus}`}${entry.lastError ? `  error: ${visible(entry.lastError)}` : ''}` +
                `${entry.status === 'pending' ? `  próximo ${internals.when(entry.nextAttemptAt)}` : ''}${entry.deliveredAt === null ? '' : `  entregado ${internals.when(entry.deliveredAt)}`}`);
            outputFor(command, io).print(lines.join('\n') || '  (sin entregas)', result);
        });
};
