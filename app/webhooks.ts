import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createWebhookSender } from '../adapters/webhooks/http-sender.js';
import type { Lookup } from '../adapters/webhooks/http-sender.js';
import type { TargetPolicy } from '../core/domain/webhook.js';
import type { DeliveryDeps, DeliveryOptions, DeliveryWorker } from '../core/use-cases/webhooks/deliver.js';
import { startWebhookDelivery } from '../core/use-cases/webhooks/deliver.js';
import type { WebhookDeps } from '../core/use-cases/webhooks/manage.js';
import type { App } from './compose.js';

// Webhooks over an app: the HTTP sender, the configured target policy and pacing, and the
// delivery that every worker runs beside its sync (`sync worker`, `serve --worker`).

export const targetPolicyOf = (app: App): TargetPolicy => ({
    allowHttpLoopback: app.config.webhooks.allowHttpLoopback,
    allowPrivateNetworks: app.config.webhooks.allowPrivateNetworks
});

export const webhookDeps = (app: App, options: { lookup?: Lookup } = {}): WebhookDeps & DeliveryDeps => ({
    ...app.ports,
    sender: createWebhookSender(options.lookup ? { lookup: options.lookup } : {})
});

export const deliveryOptionsOf = (app: App): DeliveryOptions => ({
    owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    policy: targetPolicyOf(app),
    timeoutMs: app.config.webhooks.timeoutMs,
    backoffBaseMs: app.config.webhooks.backoffBaseMs,
    pollMs: app.config.webhooks.pollMs
});

export const startWebhookWorker = (
    app: App,
    onError?: (err: unknown) => void,
    options: { lookup?: Lookup } = {}
): DeliveryWorker => startWebhookDelivery(webhookDeps(app, options), deliveryOptionsOf(app), onError);
