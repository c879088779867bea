import type { Principal } from '../domain/access.js';
import { arcaDay } from '../domain/arca-day.js';
import { formatCuit } from '../domain/cuit.js';
import { invalid } from '../domain/errors.js';
import type { IvaNotApplicable, IvaPosition } from '../domain/iva.js';
import { ivaNotApplicable, ivaPosition } from '../domain/iva.js';
import { messages } from '../domain/messages.js';
import { addMonths, monthOf, monthsBetween } from '../domain/months.js';
import type { ReadRequest } from '../domain/read-request.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import { toIso } from '../domain/time.js';
import type { Ports } from '../ports/index.js';
import { clientSyncedAt } from './client-synced-at.js';
import { findVisibleClient } from './find-visible-client.js';

// The IVA position of a Responsable Inscripto (GET /v1/cuits/{cuit}/iva; docs/answers.md, IVA):
// the months asked for (by default the 12 ending with the current one, in Buenos Aires), the
// rule core/domain/iva.ts's.

export interface IvaResult {
    data: { cuit: string; displayCuit: string; nombre: string } & (IvaPosition | IvaNotApplicable);
    filters: { desde: string; hasta: string };
    // The older of the two invoice systems' syncs (null until both synchronized once).
    syncedAt: string | null;
}

export const ivaParameters = ['cuit', 'desde', 'hasta'] as const;

// The longest range answered, in months.
export const maxIvaMonths = 24;

const internals = {
    // The months asked for: one end alone is completed to 12 months (never past the current one).
    range(input: { desde?: string | undefined; hasta?: string | undefined }, current: string): { desde: string; hasta: string } {

        const hasta = input.hasta ?? (input.desde === undefined ? current : [addMonths(input.desde, 11), current].sort()[0]!);
        const desde = input.desde ?? addMonths(hasta, -11);
        if (desde > hasta) {
            throw invalid([messages.answerRange.inverted]);
        }

        if (monthsBetween(desde, hasta).length > maxIvaMonths) {
            throw invalid([messages.answerRange.tooManyMonths(maxIvaMonths)]);
        }

        return { desde, hasta };
    }
};

export const getIvaPosition = async (
    deps: Pick<Ports, 'clients' | 'answers' | 'syncStates' | 'readCache' | 'clock'>,
    principal: Principal,
    request: ReadRequest
): Promise<IvaResult> => {

    const input = parseReadRequest(request, ivaParameters, 'months');
    const filters = internals.range(input, monthOf(arcaDay(deps.clock.now().getTime())));
    const client = await findVisibleClient(deps, principal, input.cuit);
    const identity = { cuit: client.cuit, displayCuit: formatCuit(client.cuit), nombre: client.displayName };
    const synced = await Promise.all([clientSyncedAt(deps, client, 'issued_invoices'), clientSyncedAt(deps, client, 'received_invoices')]);
    const syncedAt = synced.includes(null) ? null : toIso(Math.min(...synced as number[]));
    const refusal = ivaNotApplicable(client);
    if (refusal) {
        return { data: { ...identity, ...refusal }, filters, syncedAt };
    }

    const rows = await deps.answers.ivaTotals(client.id, filters);
    return { data: { ...identity, ...ivaPosition(filters.desde, filters.hasta, rows) }, filters, syncedAt };
};
