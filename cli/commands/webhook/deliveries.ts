import type { Command } from 'commander';
import { listDeliveries } from '../../../core/use-cases/webhooks/manage.js';
import type { CliIo } from '../../io.js';
import { cliLabels, labelOf } from '../../messages.js';
import { outputFor, parseId, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';
import { when } from './when.js';

const internals = {
    limit(raw: string | undefined): number {

        const value = raw === undefined ? 50 : Number(raw);
        return Number.isInteger(value) && value >= 1 && value <= 1000 ? value : 50;
    }
};

export const addWebhookDeliveries = (webhook: Command, io: CliIo): void => {

    webhook.command('deliveries')
        .description('los intentos de entrega, del más reciente al más antiguo')
        .option('--endpoint <id>', 'un endpoint')
        .option('--account <id>', 'una cuenta')
        .option('--limit <n>', 'cuántos (50)')
        .action(async (options: { endpoint?: string; account?: string; limit?: string }, command: Command) => {

            const result = await withApp(io, (app) => listDeliveries(app.ports, {
                endpointId: options.endpoint === undefined ? undefined : parseId(options.endpoint),
                accountId: options.account === undefined ? undefined : parseId(options.account),
                limit: internals.limit(options.limit)
            }));
            const lines = result.deliveries.map((entry) => `  ${entry.eventId}  ${visible(entry.type)}  webhook ${entry.endpointId}  ${labelOf(cliLabels.delivery, entry.status)}  intentos ${entry.attempts}` +
                `${entry.lastStatus === null ? '' : `  respuesta ${entry.lastStatus}`}${entry.lastError ? `  error: ${visible(entry.lastError)}` : ''}` +
                `${entry.status === 'pending' ? `  próximo ${when(entry.nextAttemptAt)}` : ''}${entry.deliveredAt === null ? '' : `  entregado ${when(entry.deliveredAt)}`}`);
            outputFor(command, io).print(lines.join('\n') || '  (sin entregas)', result);
        });
};
