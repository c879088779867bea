import { DomainError } from '../domain/errors.js';
import type { ThrottleRule, ThrottleWindow } from '../domain/throttle.js';
import { throttleWindowAt } from '../domain/throttle.js';
import type { Ports } from '../ports/index.js';

// One attempt of `subject` under a throttle rule: counted, or refused with `message` (429)
// once the window holds `rule.limit` attempts.
export const countAttempt = async (deps: Pick<Ports, 'throttles' | 'clock'>, rule: ThrottleRule, subject: string, message: string): Promise<ThrottleWindow> => {

    const window = throttleWindowAt(deps.clock.now(), rule);
    if (!await deps.throttles.tryCount(subject, window.start, rule.limit)) {
        throw new DomainError('rate_limited', message, {
            limit: rule.limit,
            resetAt: window.start + rule.windowSeconds,
            retryAfterSeconds: window.retryAfterSeconds
        });
    }

    return window;
};
