import type { Command } from 'commander';
import { rotateWebhookSecret } from '../../../core/use-cases/webhooks/manage.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';

export const addWebhookRotateSecret = (webhook: Command, io: CliIo): void => {

    webhook.command('rotate-secret <id>')
        .description('genera un secreto de firma nuevo (se muestra solo esta vez); el anterior deja de firmar')
        .action(async (id: string, _options: object, command: Command) => {

            const result = await withApp(io, (app) => rotateWebhookSecret(app.ports, { id: parseId(id) }));
            outputFor(command, io).print(`Secreto de firma nuevo del webhook ${result.id} (se muestra solo esta vez): ${result.secret}`, result);
        });
};
