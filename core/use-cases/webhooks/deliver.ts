import type { HealthState, KeyState } from '../../domain/health.js';
import { healthText, systemNames } from '../../domain/health.js';
import type { TargetPolicy } from '../../domain/webhook.js';
import { breakerPauseMs, deliveryWindowMs, retryDelayMs, sign, signatureHeader, webhookBody } from '../../domain/webhook.js';
import type { ClaimedDelivery, DeliveryOutcome, OutboxEventRecord, Ports, WebhookSender } from '../../ports/index.js';

// Delivering the outbox (README: States and webhooks): at least once, every event to every
// endpoint of its account that listens to its type. A 2xx ends a delivery; anything else (a
// redirect included: none is followed), a timeout or a refused address is tried again with
// exponential back-off and jitter until the event is three days old, then marked failed. Each
// worker calls an endpoint one delivery at a time and takes other endpoints' meanwhile, so a
// slow receiver never holds the rest up: endpoints take the slots in turn, one slot is kept for
// endpoints without failures, and an endpoint that keeps failing is set aside by its circuit
// breaker (shared by the fleet through the database). Workers also prune the outbox: what was
// delivered or given up is deleted after the retention (30 days).

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
    retentionMs?: number;              // how long a delivered or given-up event is kept (30 days)
    pruneEveryMs?: number;             // between two prunings by a worker (10 min)
}

// What a run of deliveries did (`arcasync sync`): calls that ended delivered, and the others.
export interface DeliveryTally {
    delivered: number;
    notDelivered: number;
}

// Each call's end, for a tally.
type OnOutcome = (outcome: DeliveryOutcome) => void;

// A call in flight, by its endpoint; `failing` when its endpoint had failures when taken.
type Busy = Map<number, { call: Promise<void>; failing: boolean }>;

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

        // The states the sync stored with the event (older events got theirs in migration 020).
        const stored = event.data as { estado?: HealthState; estadoAnterior?: HealthState } | null;
        const estado = stored?.estado ?? (event.error === null ? 'ok' : 'error');
        return {
            sistema: event.system ? systemNames[event.system] : null,
            estado,
            estadoAnterior: stored?.estadoAnterior ?? 'pendiente',
            desde: new Date(event.createdAt).toISOString(),
            ...healthText(estado)
        };
    },

    // A lease long enough for one call, and then some.
    leaseMs: (options: DeliveryOptions): number => options.timeoutMs + 2_000,

    retentionMs: 30 * 24 * 60 * 60_000,
    pruneEveryMs: 10 * 60_000,
    // A pruning's batches: a worker deletes at most this many events per turn.
    pruneBatch: 500,
    pruneBatches: 10,
    expired: 'Se dejó de reintentar: pasaron tres días sin una respuesta 2xx.',

    calls: (busy: Busy): Promise<void>[] => [...busy.values()].map((entry) => entry.call),

    // The call's end recorded, and the endpoint's breaker moved: a 2xx closes it; the
    // breakerFailures-th failure in a row (and each later one) opens it for its pause.
    async settle(deps: DeliveryDeps, options: DeliveryOptions, delivery: ClaimedDelivery, outcome: DeliveryOutcome): Promise<void> {

        const at = deps.clock.now().getTime();
        if (!await deps.webhooks.record(delivery.id, options.owner, at, outcome) || delivery.endpoint.disabledAt !== null) {
            return;
        }

        const failures = await deps.webhooks.noteCall(delivery.endpoint.id, outcome.status === 'delivered');
        const pause = breakerPauseMs(failures, options.backoffBaseMs, options.random);
        if (pause !== null) {
            await deps.webhooks.pauseEndpoint(delivery.endpoint.id, at + pause);
        }
    }
};

// One call for a claimed delivery, and what to record of it.
const deliverOnce = async (deps: DeliveryDeps, options: DeliveryOptions, delivery: ClaimedDelivery): Promise<DeliveryOutcome> => {

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
// called), each called and recorded. One slot stays for endpoints without failures, so
// receivers that fail or never answer share the others and a healthy endpoint never waits
// for their timeouts. Returns the calls started.
const pass = async (
    deps: DeliveryDeps,
    options: DeliveryOptions,
    busy: Busy,
    scope: { endpointIds?: readonly number[]; probe?: boolean; onOutcome?: OnOutcome } = {}
): Promise<number> => {

    await deps.webhooks.fanOut(200);
    const concurrency = options.concurrency ?? 8;
    const slots = concurrency - busy.size;
    if (slots <= 0) {
        return 0;
    }

    const failingBusy = [...busy.values()].filter((entry) => entry.failing).length;
    const claimed = await deps.webhooks.claim({
        owner: options.owner,
        now: deps.clock.now().getTime(),
        leaseMs: internals.leaseMs(options),
        limit: slots,
        busyEndpoints: [...busy.keys()],
        maxFailing: Math.max(0, Math.max(1, concurrency - 1) - failingBusy),
        ...(scope.endpointIds ? { endpointIds: scope.endpointIds } : {}),
        ...(scope.probe ? { probe: true } : {})
    });
    for (const delivery of claimed) {
        const call = (async () => {

            const outcome = await deliverOnce(deps, options, delivery).catch((): DeliveryOutcome => ({
                status: 'pending',
                httpStatus: null,
                error: 'Error interno al entregar; se reintentará.',
                nextAttemptAt: deps.clock.now().getTime() + options.backoffBaseMs
            }));
            scope.onOutcome?.(outcome);
            await internals.settle(deps, options, delivery, outcome).catch(() => undefined);
        })().finally(() => busy.delete(delivery.endpoint.id));
        busy.set(delivery.endpoint.id, { call, failing: delivery.endpoint.consecutiveFailures > 0 });
    }

    return claimed.length;
};

// Retention: pending deliveries past the delivery window given up (an endpoint set aside may
// hold them past it), then delivered and given-up events older than the retention deleted with
// their deliveries, in bounded batches.
const pruneOutbox = async (deps: DeliveryDeps, options: DeliveryOptions): Promise<{ expired: number; events: number; deliveries: number }> => {

    const now = deps.clock.now().getTime();
    const total = { expired: 0, events: 0, deliveries: 0 };
    for (let batch = 0; batch < internals.pruneBatches; batch++) {
        const done = await deps.webhooks.prune({
            before: now - (options.retentionMs ?? internals.retentionMs),
            expireBefore: now - (options.windowMs ?? deliveryWindowMs),
            at: now,
            reason: internals.expired,
            limit: internals.pruneBatch
        });
        total.expired += done.expired;
        total.events += done.events;
        total.deliveries += done.deliveries;
        if (done.expired < internals.pruneBatch && done.events < internals.pruneBatch) {
            break;
        }
    }

    return total;
};

// The long-running delivery of a worker (`sync worker`, `serve --worker`).
export const startWebhookDelivery = (deps: DeliveryDeps, options: DeliveryOptions, onError: (err: unknown) => void = () => undefined): DeliveryWorker => {

    const busy: Busy = new Map();
    let stopped = false;
    let wake: (() => void) | null = null;
    let pruneAt = -Infinity;
    const loop = (async () => {

        while (!stopped) {
            try {
                const now = deps.clock.now().getTime();
                if (now >= pruneAt) {
                    pruneAt = now + (options.pruneEveryMs ?? internals.pruneEveryMs);
                    await pruneOutbox(deps, options);
                }

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
                void Promise.race(busy.size ? internals.calls(busy) : [new Promise(() => undefined)]).then(() => wake?.());
            });
            wake = null;
        }
    })();

    return {
        async stop() {

            stopped = true;
            (wake as (() => void) | null)?.();
            await loop;
            await Promise.allSettled(internals.calls(busy));
        }
    };
};

// `arcasync sync` (cron installations, with no worker): what is due in the outbox delivered
// before the command exits, for at most `capMs` (a call still in flight at the cap is cut
// there); the rest waits for the next run. It prunes as a worker does. `onStart` is told once,
// when the first call starts.
export const deliverDue = async (
    deps: DeliveryDeps,
    options: DeliveryOptions,
    input: { capMs: number; onStart?: () => void; signal?: AbortSignal }
): Promise<DeliveryTally> => {

    const tally: DeliveryTally = { delivered: 0, notDelivered: 0 };
    const deadline = deps.clock.now().getTime() + input.capMs;
    const busy: Busy = new Map();
    const onOutcome: OnOutcome = (outcome) => {

        tally[outcome.status === 'delivered' ? 'delivered' : 'notDelivered']++;
    };
    await pruneOutbox(deps, options);
    let told = false;
    while (!input.signal?.aborted) {
        const left = deadline - deps.clock.now().getTime();
        if (left <= 0) {
            break;
        }

        const started = await pass(deps, { ...options, timeoutMs: Math.min(options.timeoutMs, left) }, busy, { onOutcome });
        if (started && !told) {
            told = true;
            input.onStart?.();
        }

        if (!busy.size) {
            break;
        }

        await Promise.race(internals.calls(busy));
    }

    await Promise.allSettled(internals.calls(busy));
    return tally;
};

// Events that waited this long without a delivery attempt have nobody delivering them (or a
// backlog): `arcasync sync status` says so.
const waitingWarnMs = 5 * 60_000;

export const undeliveredEvents = async (deps: Pick<Ports, 'webhooks' | 'clock'>): Promise<{ events: number; oldestAt: string | null }> => {

    const now = deps.clock.now().getTime();
    const waiting = await deps.webhooks.waiting(now - waitingWarnMs, now);
    return { events: waiting.events, oldestAt: waiting.oldestAt === null ? null : new Date(waiting.oldestAt).toISOString() };
};

// `arcasync webhook test`: the endpoint's due deliveries called now, in this process, until
// the test event has had its attempt.
export const deliverEndpointNow = async (deps: DeliveryDeps, options: DeliveryOptions, endpointId: number, eventId: string): Promise<void> => {

    const busy: Busy = new Map();
    for (let round = 0; round < 20; round++) {
        const started = await pass(deps, { ...options, concurrency: 1 }, busy, { endpointIds: [endpointId], probe: true });
        await Promise.allSettled(internals.calls(busy));
        const [latest] = (await deps.webhooks.listDeliveries({ endpointId, limit: 50 })).filter((entry) => entry.eventId === eventId);
        if (!started || !latest || latest.attempts > 0) {
            return;
        }
    }
};
