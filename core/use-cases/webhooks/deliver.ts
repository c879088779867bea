import type { KeyState } from '../../domain/health.js';
import { healthText, stateOfError, systemNames } from '../../domain/health.js';
import type { TargetPolicy } from '../../domain/webhook.js';
import { deliveryWindowMs, retryDelayMs, sign, signatureHeader, webhookBody } from '../../domain/webhook.js';
import type { ClaimedDelivery, DeliveryOutcome, OutboxEventRecord, Ports, WebhookSender } from '../../ports/index.js';

// Delivering the outbox (README: States and webhooks): at least once, every event to every
// endpoint of its account that listens to its type. A 2xx ends a delivery; anything else (a
// redirect included: none is followed), a timeout or a refused address is tried again with
// exponential back-off and jitter until the event is three days old, then marked failed. Each
// worker calls an endpoint one delivery at a time and takes other endpoints' meanwhile, so a
// slow receiver never holds the rest up.

export type DeliveryDeps = Pick<Ports, 'webhooks' | 'secretBox' | 'clock'> & { sender: WebhookSender };

export interface DeliveryOptions {
    owner: string;
    policy: TargetPolicy;
    timeoutMs: number;                 // per call (10 s)
    backoffBaseMs: number;             // the first retry's ceiling; tests shorten it
    windowMs?: number;                 // how long an event is tried (three days)
    concurrency?: number;              // calls in flight at once, each to another endpoint
    pollMs?: number;
    random?: () => number;
}

export interface DeliveryWorker {
    stop(): Promise<void>;
}

const internals = {
    // What a receiver reads in `datos`: a change of health in the API's words (a system's, or a
    // key's: `clave` and the CUITs it reaches instead of `sistema`); the rest as stored.
    datos(event: OutboxEventRecord): unknown {

        if (event.type !== 'salud.cambio') {
            return event.data;
        }

        const key = event.data as { clave?: string; cuits?: string[]; estado: KeyState; estadoAnterior: KeyState; desde: number } | null;
        if (event.system === null && key?.clave) {
            return {
                sistema: null,
                clave: key.clave,
                cuits: key.cuits ?? [],
                estado: key.estado,
                estadoAnterior: key.estadoAnterior,
                desde: new Date(key.desde).toISOString(),
                ...healthText(key.estado)
            };
        }

        const estado = event.error === null ? 'ok' : stateOfError(event.error);
        const stored = event.data as { estadoAnterior?: string } | null;
        return {
            sistema: event.system ? systemNames[event.system] : null,
            estado,
            estadoAnterior: stored?.estadoAnterior ?? (event.previousError === null ? 'pendiente' : stateOfError(event.previousError)),
            desde: new Date(event.createdAt).toISOString(),
            ...healthText(estado)
        };
    },

    // A lease long enough for one call, and then some.
    leaseMs: (options: DeliveryOptions): number => options.timeoutMs + 2_000
};

// One call for a claimed delivery, and what to record of it.
export const deliverOnce = async (deps: DeliveryDeps, options: DeliveryOptions, delivery: ClaimedDelivery): Promise<DeliveryOutcome> => {

    const now = deps.clock.now().getTime();
    if (delivery.endpoint.disabledAt !== null) {
        return { status: 'failed', httpStatus: null, error: 'El endpoint está deshabilitado.' };
    }

    let secret: string;
    try {
        secret = deps.secretBox.open(delivery.endpoint.sealedSecret);
    }
    catch {
        return { status: 'failed', httpStatus: null, error: 'El secreto de firma no se pudo descifrar: agregá su clave a ARCASYNC_SECRET_KEYS.' };
    }

    const body = webhookBody(delivery.event, internals.datos(delivery.event));
    const timestamp = Math.floor(now / 1000);
    const answer = await deps.sender.send({
        url: delivery.endpoint.url,
        body,
        timeoutMs: options.timeoutMs,
        policy: options.policy,
        headers: {
            'content-type': 'application/json',
            'user-agent': 'arcasync-webhooks/1.0',
            'arcasync-event-id': delivery.event.publicId,
            'arcasync-event-type': delivery.event.type,
            [signatureHeader.toLowerCase()]: sign(secret, timestamp, body)
        }
    });

    if ('status' in answer && answer.status >= 200 && answer.status < 300) {
        return { status: 'delivered', httpStatus: answer.status };
    }

    const error = 'status' in answer ? `El receptor respondió ${answer.status}.` : answer.error;
    const httpStatus = 'status' in answer ? answer.status : null;
    const after = deps.clock.now().getTime();
    const next = after + retryDelayMs(delivery.attempts + 1, options.backoffBaseMs, options.random);
    if (next - delivery.event.createdAt > (options.windowMs ?? deliveryWindowMs)) {
        return { status: 'failed', httpStatus, error: `${error} Se dejó de reintentar: pasaron tres días.` };
    }

    return { status: 'pending', httpStatus, error, nextAttemptAt: next };
};

// One pass: new events fanned out, due deliveries taken (one per endpoint not already being
// called), each called and recorded. Returns the calls started.
const pass = async (deps: DeliveryDeps, options: DeliveryOptions, busy: Map<number, Promise<void>>, endpointIds?: readonly number[]): Promise<number> => {

    await deps.webhooks.fanOut(200);
    const slots = (options.concurrency ?? 8) - busy.size;
    if (slots <= 0) {
        return 0;
    }

    const claimed = await deps.webhooks.claim({
        owner: options.owner,
        now: deps.clock.now().getTime(),
        leaseMs: internals.leaseMs(options),
        limit: slots,
        busyEndpoints: [...busy.keys()],
        ...(endpointIds ? { endpointIds } : {})
    });
    for (const delivery of claimed) {
        const call = (async () => {

            const outcome = await deliverOnce(deps, options, delivery).catch((): DeliveryOutcome => ({
                status: 'pending',
                httpStatus: null,
                error: 'Error interno al entregar; se reintentará.',
                nextAttemptAt: deps.clock.now().getTime() + options.backoffBaseMs
            }));
            await deps.webhooks.record(delivery.id, options.owner, deps.clock.now().getTime(), outcome).catch(() => false);
        })().finally(() => busy.delete(delivery.endpoint.id));
        busy.set(delivery.endpoint.id, call);
    }

    return claimed.length;
};

// The long-running delivery of a worker (`sync worker`, `serve --worker`).
export const startWebhookDelivery = (deps: DeliveryDeps, options: DeliveryOptions, onError: (err: unknown) => void = () => undefined): DeliveryWorker => {

    const busy = new Map<number, Promise<void>>();
    let stopped = false;
    let wake: (() => void) | null = null;
    const loop = (async () => {

        while (!stopped) {
            try {
                await pass(deps, options, busy);
            }
            catch (err) {
                onError(err);
            }

            // Poll again after pollMs, or as soon as a call ends and frees its endpoint.
            await new Promise<void>((resolve) => {

                const timer = setTimeout(resolve, options.pollMs ?? 1000);
                wake = () => {

                    clearTimeout(timer);
                    resolve();
                };
                void Promise.race(busy.size ? [...busy.values()] : [new Promise(() => undefined)]).then(() => wake?.());
            });
            wake = null;
        }
    })();

    return {
        async stop() {

            stopped = true;
            (wake as (() => void) | null)?.();
            await loop;
            await Promise.allSettled([...busy.values()]);
        }
    };
};

// `arcasync webhook test`: the endpoint's due deliveries called now, in this process, until
// the test event has had its attempt.
export const deliverEndpointNow = async (deps: DeliveryDeps, options: DeliveryOptions, endpointId: number, eventId: string): Promise<void> => {

    const busy = new Map<number, Promise<void>>();
    for (let round = 0; round < 20; round++) {
        const started = await pass(deps, { ...options, concurrency: 1 }, busy, [endpointId]);
        await Promise.allSettled([...busy.values()]);
        const [latest] = (await deps.webhooks.listDeliveries({ endpointId, limit: 50 })).filter((entry) => entry.eventId === eventId);
        if (!started || !latest || latest.attempts > 0) {
            return;
        }
    }
};
