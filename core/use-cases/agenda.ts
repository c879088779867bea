import type { Principal } from '../domain/access.js';
import type { AgendaItem } from '../domain/agenda.js';
import { agendaItems, maxAgendaDays } from '../domain/agenda.js';
import { arcaDay } from '../domain/arca-day.js';
import { invalid } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import { addDays, daysBetween } from '../domain/months.js';
import type { Pagination } from '../domain/pagination.js';
import type { ReadRequest } from '../domain/read-request.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import type { Ports } from '../ports/index.js';
import type { Cuit } from '../domain/cuit.js';
import { findVisibleClient } from './find-visible-client.js';

// The portfolio's agenda (GET /v1/vencimientos and the private iCalendar feed; docs/answers.md,
// Agenda): every item of every CUIT the principal manages between two days, by date then CUIT.

export interface AgendaResult {
    data: AgendaItem[];
    pagination: Pagination;
    filters: { desde: string; hasta: string };
}

export const agendaParameters = ['limit', 'offset', 'desde', 'hasta'] as const;

// Without `hasta`, this many days after `desde`.
const defaultAgendaDays = 30;

const internals = {
    range(input: { desde?: string | undefined; hasta?: string | undefined }, today: string): { desde: string; hasta: string } {

        const desde = input.desde ?? today;
        const hasta = input.hasta ?? addDays(desde, defaultAgendaDays);
        if (desde > hasta) {
            throw invalid([messages.answerRange.inverted]);
        }

        if (daysBetween(desde, hasta) > maxAgendaDays) {
            throw invalid([messages.answerRange.tooManyDays(maxAgendaDays)]);
        }

        return { desde, hasta };
    }
};

// Every item between two Buenos Aires days (both included), for the list and the calendar feed.
export const agendaOf = async (
    deps: Pick<Ports, 'answers' | 'holidays'>,
    principal: Principal,
    range: { desde: string; hasta: string },
    clientId?: number
): Promise<AgendaItem[]> => {

    const [clients, sct] = await Promise.all([deps.answers.agendaClients(principal, clientId), deps.answers.sctAgenda(principal, range, clientId)]);
    return agendaItems({ ...range, clients, sct, isHoliday: deps.holidays.isHoliday });
};

export const listAgenda = async (
    deps: Pick<Ports, 'answers' | 'holidays' | 'clock'>,
    principal: Principal,
    request: ReadRequest
): Promise<AgendaResult> => {

    const input = parseReadRequest(request, agendaParameters);
    const filters = internals.range(input, arcaDay(deps.clock.now().getTime()));
    const items = await agendaOf(deps, principal, filters);
    return {
        data: items.slice(input.offset, input.offset + input.limit),
        pagination: { limit: input.limit, offset: input.offset, total: items.length },
        filters
    };
};

// One CUIT's agenda from today for `days` days (consultar_sct): the same items as the
// portfolio's, read for that client alone (another account's CUIT is the same 404 as a missing one).
export const agendaOfCuit = async (
    deps: Pick<Ports, 'answers' | 'holidays' | 'clock' | 'clients'>,
    principal: Principal,
    cuit: Cuit,
    days = defaultAgendaDays
): Promise<{ desde: string; hasta: string; items: AgendaItem[] }> => {

    const client = await findVisibleClient(deps, principal, cuit);
    const desde = arcaDay(deps.clock.now().getTime());
    const range = { desde, hasta: addDays(desde, days) };
    return { ...range, items: await agendaOf(deps, principal, range, client.id) };
};
