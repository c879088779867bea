import { invalid } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { TargetPolicy } from '../../domain/webhook.js';
import { checkTargetUrl, newSigningSecret, parseEventTypes } from '../../domain/webhook.js';
import type { DeliveryListing, Ports, WebhookEndpoint, WebhookSender } from '../../ports/index.js';

// Staff's webhook endpoints (`arcasync webhook …`): the API itself stays read-only. The signing
// secret is shown once, when created or rotated, and stored sealed like a clave fiscal.

export type WebhookDeps = Pick<Ports, 'webhooks' | 'accounts' | 'secretBox' | 'clock'> & { sender: WebhookSender };

const internals = {
    async endpoint(deps: Pick<Ports, 'webhooks'>, id: number) {

        const endpoint = await deps.webhooks.findEndpoint(id);
        if (!endpoint) {
            throw invalid([messages.webhook.notFound(id)]);
        }

        return endpoint;
    }
};

// The URL's own rules first, then every address its name resolves to now (the check is made
// again on every delivery).
export const createWebhook = async (deps: WebhookDeps, input: {
    accountId: number;
    url: string;
    events?: string | undefined;
}, policy: TargetPolicy): Promise<{ id: number; url: string; events: string; secret: string }> => {

    if (!await deps.accounts.findById(input.accountId)) {
        throw invalid([messages.admin.accountNotFound(input.accountId)]);
    }

    const target = checkTargetUrl(input.url, policy);
    if ('error' in target) {
        throw invalid([target.error]);
    }

    const refused = await deps.sender.check(target.url, policy);
    if (refused) {
        throw invalid([refused]);
    }

    const events = parseEventTypes(input.events);
    if ('error' in events) {
        throw invalid([events.error]);
    }

    const secret = newSigningSecret();
    const listened = events.types === '*' ? '*' : events.types.join(',');
    const id = await deps.webhooks.createEndpoint({
        accountId: input.accountId,
        url: target.url.toString(),
        events: listened,
        sealedSecret: deps.secretBox.seal(secret),
        createdAt: deps.clock.now().getTime()
    });
    return { id, url: target.url.toString(), events: listened, secret };
};

export const listWebhooks = async (deps: Pick<Ports, 'webhooks'>, input: { accountId?: number | undefined }): Promise<{ endpoints: WebhookEndpoint[] }> => ({
    endpoints: await deps.webhooks.listEndpoints(input.accountId)
});

export const disableWebhook = async (deps: Pick<Ports, 'webhooks' | 'clock'>, input: { id: number }): Promise<{ id: number; disabled: true }> => {

    await internals.endpoint(deps, input.id);
    await deps.webhooks.disableEndpoint(input.id, deps.clock.now().getTime());
    return { id: input.id, disabled: true };
};

// The old secret stops signing at once: receivers verify with the new one from the next call.
export const rotateWebhookSecret = async (deps: Pick<Ports, 'webhooks' | 'secretBox'>, input: { id: number }): Promise<{ id: number; secret: string }> => {

    await internals.endpoint(deps, input.id);
    const secret = newSigningSecret();
    await deps.webhooks.replaceSecret(input.id, deps.secretBox.seal(secret));
    return { id: input.id, secret };
};

export const enqueueTestEvent = async (deps: Pick<Ports, 'webhooks' | 'clock'>, input: { id: number }): Promise<{ id: number; eventId: string }> => {

    const endpoint = await internals.endpoint(deps, input.id);
    if (endpoint.disabledAt !== null) {
        throw invalid([messages.webhook.disabled(input.id)]);
    }

    return { id: input.id, eventId: await deps.webhooks.enqueueTest(input.id, deps.clock.now().getTime()) };
};

export const listDeliveries = async (deps: Pick<Ports, 'webhooks'>, input: {
    endpointId?: number | undefined;
    accountId?: number | undefined;
    limit?: number | undefined;
}): Promise<{ deliveries: DeliveryListing[] }> => ({
    deliveries: await deps.webhooks.listDeliveries({
        ...(input.endpointId === undefined ? {} : { endpointId: input.endpointId }),
        ...(input.accountId === undefined ? {} : { accountId: input.accountId }),
        limit: input.limit ?? 50
    })
});
