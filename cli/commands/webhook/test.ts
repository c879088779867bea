import type { Command } from 'commander';
import { deliveryOptionsOf, webhookDeps } from '../../../app/webhooks.js';
import { deliverEndpointNow } from '../../../core/use-cases/webhooks/deliver.js';
import { enqueueTestEvent, listDeliveries } from '../../../core/use-cases/webhooks/manage.js';
import type { CliIo } from '../../io.js';
import { cliMessages } from '../../messages.js';
import { failure, outputFor, parseId, withApp } from '../../run.js';

// `arcasync webhook test <id>`: a signed test event delivered now; a receiver that does not
// answer 2xx fails the command.
export const addWebhookTest = (webhook: Command, io: CliIo): void => {

    webhook.command('test <id>')
        .description('envía ahora un evento de prueba firmado al endpoint')
        .action(async (id: string, _options: object, command: Command) => {

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
};
