import { forbidden } from '../domain/errors.js';
import { throttleRules } from '../domain/throttle.js';
import type { Ports } from '../ports/index.js';
import { countAttempt } from './count-attempt.js';

// Open registration of OAuth clients (MCP clients register themselves), within limits: so
// many per client address and hour (429), so many clients in all. At the cap the oldest
// registration nobody authorized gives way to the new one; only when every registered client
// has been authorized is the registration refused (403). See core/domain/throttle.ts.
export const admitClientRegistration = async (
    deps: Pick<Ports, 'throttles' | 'oauthStore' | 'clock'>,
    input: { address: string; maxClients: number; messages: { throttled: string; full: string } }
): Promise<void> => {

    await countAttempt(deps, throttleRules.registrationPerAddress, `register:address:${input.address}`, input.messages.throttled);
    const now = deps.clock.now().getTime();
    if (await deps.oauthStore.count('Client', now) >= input.maxClients && !await deps.oauthStore.dropSoonestExpiring('Client', now)) {
        throw forbidden(input.messages.full);
    }
};
