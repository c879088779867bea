import type { Command } from 'commander';
import type { CliIo } from '../../io.js';
import { addWebhookCreate } from './create.js';
import { addWebhookDeliveries } from './deliveries.js';
import { addWebhookDisable } from './disable.js';
import { addWebhookList } from './list.js';
import { addWebhookRotateSecret } from './rotate-secret.js';
import { addWebhookTest } from './test.js';

// Staff's signed webhooks per account (README: States and webhooks): the API stays read-only.
// The signing secret is printed once, by create and rotate-secret.
export const registerWebhookCommands = (program: Command, io: CliIo): void => {

    const webhook = program.command('webhook').description('webhooks firmados de una cuenta: eventos de sincronización, salud, DFE y deuda');
    for (const add of [addWebhookCreate, addWebhookList, addWebhookDisable, addWebhookRotateSecret, addWebhookTest, addWebhookDeliveries]) {
        add(webhook, io);
    }
};
