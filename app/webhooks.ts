import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createWebhookSender } from '../adapters/webhooks/http-sender.js';
import type { Lookup } from '../adapters/webhooks/http-sender.js';
import type { TargetPolicy } from '../core/domain/webhook.js';
import type { DeliveryDeps, DeliveryOptions, DeliveryTally, DeliveryWorker } from '../core/use-cases/webhooks/deliver.js';
import { deliverDue, startWebhookDelivery } from '../core/use-cases/webhooks/deliver.js';
import type { WebhookDeps } from '../core/use-cases/webhooks/manage.js';
import type { App } from './compose.js';

// Webhooks over an app: the HTTP sender, the configured target policy and pacing, the
// delivery that every worker runs beside its sync (`sync worker`, `serve --worker`), and the
// bounded one of cron's `sync` before it exits.

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
    pollMs: app.config.webhooks.pollMs,
    retentionMs: app.config.webhooks.retentionMs
});

export const startWebhookWorker = (
    app: App,
    onError?: (err: unknown) => void,
    options: { lookup?: Lookup } = {}
): DeliveryWorker => startWebhookDelivery(webhookDeps(app, options), deliveryOptionsOf(app), onError);

// `arcasync sync`: the outbox's due deliveries, for WEBHOOK_SYNC_SECONDS at most (none when 0).
export const deliverDueNow = async (
    app: App,
    input: { onStart?: (capMs: number) => void; signal?: AbortSignal } = {}
): Promise<DeliveryTally & { capMs: number }> => {

    const capMs = app.config.webhooks.syncDeliveryMs;
    if (capMs === 0 || input.signal?.aborted) {
        return { delivered: 0, notDelivered: 0, capMs };
    }

    const tally = await deliverDue(webhookDeps(app), deliveryOptionsOf(app), {
        capMs,
        ...(input.onStart ? { onStart: () => input.onStart!(capMs) } : {}),
        ...(input.signal ? { signal: input.signal } : {})
    });
    return { ...tally, capMs };
};
