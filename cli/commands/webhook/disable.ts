import type { Command } from 'commander';
import { disableWebhook } from '../../../core/use-cases/webhooks/manage.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';

export const addWebhookDisable = (webhook: Command, io: CliIo): void => {

    webhook.command('disable <id>')
        .description('deja de enviar eventos al endpoint (lo pendiente se da por fallido)')
        .action(async (id: string, _options: object, command: Command) => {

            const result = await withApp(io, (app) => disableWebhook(app.ports, { id: parseId(id) }));
            outputFor(command, io).print(`Webhook ${result.id} deshabilitado.`, result);
        });
};
