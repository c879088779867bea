import type { TargetPolicy } from '../domain/webhook.js';

// One call to a receiver: a POST of the signed body. The sender follows no redirect, gives up
// at the timeout, and checks every address the name resolves to against the policy when it
// connects (not only when the endpoint was created: a name may point elsewhere later).
interface WebhookCall {
    url: string;
    headers: Record<string, string>;
    body: string;
    timeoutMs: number;
    policy: TargetPolicy;
}

// status: the HTTP status; error: why there was none (refused target, timeout, network), in Spanish.
type WebhookAnswer = { status: number } | { error: string };

export interface WebhookSender {
    send(call: WebhookCall): Promise<WebhookAnswer>;
    // The addresses a name resolves to, each checked against the policy (at creation).
    check(url: URL, policy: TargetPolicy): Promise<string | null>;
}
