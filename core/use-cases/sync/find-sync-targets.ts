import { notFound } from '../../domain/errors.js';
import { parseStaffCuit } from '../staff/staff-input.js';
import type { QueueDeps } from './deps.js';

// Staff name a CUIT; every account's client with it is a target (404 when none has it).
export const findSyncTargets = async (deps: Pick<QueueDeps, 'syncTargets'>, cuitInput: string) => {

    const cuit = parseStaffCuit(cuitInput);
    const clients = await deps.syncTargets.findByCuit(cuit);
    if (!clients.length) {
        throw notFound();
    }

    return { cuit, clients };
};
