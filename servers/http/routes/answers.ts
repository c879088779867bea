import { createHash } from 'node:crypto';
import type { ServerRoute } from '@hapi/hapi';
import ical from 'ical-generator';
import type { AgendaItem } from '../../../core/domain/agenda.js';
import type { Ports } from '../../../core/ports/index.js';
import { agendaParameters, listAgenda } from '../../../core/use-cases/agenda.js';
import { readCalendarFeed } from '../../../core/use-cases/calendar-feed.js';
import { getIvaPosition, ivaParameters } from '../../../core/use-cases/iva-position.js';
import { getMonotributoControl, listMonotributoPortfolio, monotributoParameters, monotributoPortfolioParameters } from '../../../core/use-cases/monotributo.js';
import { principalOf, readRequestOf } from '../auth.js';
import { answerUseCase, toBoom } from '../errors.js';

// The answers accountants act on (docs/answers.md), additions to the first contract: the
// monotributo control of a CUIT and of the portfolio, the portfolio's agenda, and the IVA
// position of a Responsable Inscripto; the rules are the core's. Plus the agenda as a private
// iCalendar feed: its secret is in the address (calendar apps send no bearer token), so it is
// outside /v1 and checked by its own use case.

const internals = {
    kindTitles: {
        sct_vencimiento: 'Vencimiento',
        sct_deuda: 'Deuda',
        ddjj: 'Declaración jurada',
        monotributo_pago: 'Pago del monotributo',
        recategorizacion: 'Recategorización'
    } satisfies Record<AgendaItem['tipo'], string>,

    pesos: new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS' }),

    // The same item keeps its UID from one read to the next, so a calendar updates it in place.
    uid: (item: AgendaItem): string => `${item.fecha}-${item.cuit}-${item.tipo}-${createHash('sha256').update(item.descripcion).digest('hex').slice(0, 12)}@arcasync`,

    calendar(items: readonly AgendaItem[], stamp: Date): string {

        const calendar = ical({ name: 'arcasync: vencimientos', prodId: { company: 'arcasync', product: 'vencimientos', language: 'ES' } });
        for (const item of items) {
            const amount = item.importe === null ? '' : ` Importe: ${internals.pesos.format(item.importe)}.`;
            calendar.createEvent({
                id: internals.uid(item),
                stamp,
                start: new Date(`${item.fecha}T12:00:00Z`),
                allDay: true,
                summary: `${internals.kindTitles[item.tipo]}: ${item.nombre} (${item.displayCuit})`,
                description: `${item.descripcion}${amount}`
            });
        }

        return calendar.toString();
    }
};

export const answerRoutes = (deps: Ports): ServerRoute[] => [
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/monotributo',
        options: { app: { parameters: monotributoParameters } },
        handler: answerUseCase(async (request) => getMonotributoControl(deps, principalOf(request), readRequestOf(request)))
    },
    {
        method: 'GET',
        path: '/v1/monotributo',
        options: { app: { parameters: monotributoPortfolioParameters } },
        handler: answerUseCase(async (request) => listMonotributoPortfolio(deps, principalOf(request), readRequestOf(request)))
    },
    {
        method: 'GET',
        path: '/v1/vencimientos',
        options: { app: { parameters: agendaParameters } },
        handler: answerUseCase(async (request) => listAgenda(deps, principalOf(request), readRequestOf(request)))
    },
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/iva',
        options: { app: { parameters: ivaParameters, variant: 'months' } },
        handler: answerUseCase(async (request) => getIvaPosition(deps, principalOf(request), readRequestOf(request)))
    },
    {
        method: 'GET',
        path: '/calendario/{token}.ics',
        options: { auth: false, app: { secretPath: true } },
        async handler(request, h) {

            try {
                const items = await readCalendarFeed(deps, String(request.params.token));
                return h.response(internals.calendar(items, deps.clock.now()))
                    .type('text/calendar; charset=utf-8')
                    .header('Cache-Control', 'private, no-store');
            }
            catch (err) {
                throw toBoom(err);
            }
        }
    }
];
