import { DomainError } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';

// The demo's database holds made-up clients and keys: nothing may send them to the real
// authority (a cron line copied from the README onto the demo's database would).
export const checkAuthority = async (deps: Pick<Ports, 'installation'>, authority: 'arca' | 'simulated'): Promise<void> => {

    if (authority === 'arca' && await deps.installation.isSimulated()) {
        throw new DomainError('invalid', messages.sync.simulatedDatabase);
    }
};
