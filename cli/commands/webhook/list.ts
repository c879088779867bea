import type { Command } from 'commander';
import { listWebhooks } from '../../../core/use-cases/webhooks/manage.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';
import { when } from './when.js';

const internals = {
    // The endpoint's circuit breaker, when it set the endpoint aside (README: States and webhooks).
    breaker: (entry: { openUntil: number | null; consecutiveFailures: number }): string => (entry.openUntil === null
        ? ''
        : `  en pausa hasta ${when(entry.openUntil)} (${entry.consecutiveFailures} ${entry.consecutiveFailures === 1 ? 'falla seguida' : 'fallas seguidas'})`)
};

export const addWebhookList = (webhook: Command, io: CliIo): void => {

    webhook.command('list')
        .description('los endpoints (de una cuenta o de todas): id, cuenta, URL, eventos, estado')
        .option('--account <id>', 'cuenta')
        .action(async (options: { account?: string }, command: Command) => {

            const result = await withApp(io, (app) => listWebhooks(app.ports, {
                accountId: options.account === undefined ? undefined : parseId(options.account)
            }));
            const lines = result.endpoints.map((entry) => `  ${entry.id}  cuenta ${entry.accountId}  ${visible(entry.url)}  eventos: ${visible(entry.events)}  ${entry.disabledAt === null ? 'activo' : `deshabilitado ${when(entry.disabledAt)}`}${
                internals.breaker(entry)}`);
            outputFor(command, io).print(lines.join('\n') || '  (sin webhooks)', result);
        });
};
