import type { Command } from 'commander';
import { targetPolicyOf, webhookDeps } from '../../../app/webhooks.js';
import { createWebhook } from '../../../core/use-cases/webhooks/manage.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';

export const addWebhookCreate = (webhook: Command, io: CliIo): void => {

    webhook.command('create')
        .description('registra un endpoint; muestra el secreto de firma una sola vez')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--url <url>', 'https://… (http solo a la máquina local con WEBHOOK_ALLOW_HTTP_LOOPBACK=1)')
        .option('--events <tipos>', 'tipos separados por coma (todos si se omite): sincronizacion.completada, salud.cambio, dfe.nuevas, sct.deuda_cambio')
        .action(async (options: { account: string; url: string; events?: string }, command: Command) => {

            const result = await withApp(io, (app) => createWebhook(webhookDeps(app), {
                accountId: parseId(options.account),
                url: options.url,
                events: options.events
            }, targetPolicyOf(app)));
            outputFor(command, io).print([
                `Webhook ${result.id} creado: ${visible(result.url)} (eventos: ${visible(result.events)}).`,
                `Secreto de firma (se muestra solo esta vez): ${result.secret}`
            ].join('\n'), result);
        });
};
