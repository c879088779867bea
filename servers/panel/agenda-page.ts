import type { ServerRoute } from '@hapi/hapi';
import type { AgendaItem } from '../../core/domain/agenda.js';
import { isDomainError } from '../../core/domain/errors.js';
import { listAgenda } from '../../core/use-cases/agenda.js';
import { answerTexts } from './answer-texts.js';
import { formatCalendarDay, formatMoney } from './client-format.js';
import { formatCount } from './format.js';
import type { PanelContext } from './respond.js';
import { panelPaths, renderPage, withSession } from './respond.js';
import { panelTexts } from './texts.js';

// Agenda (GET /panel/agenda): the due dates of every CUIT the user may see between two days,
// through GET /v1/vencimientos's use case (its defaults, today to 30 days ahead, its order and
// its Spanish refusals), paged and grouped by date, each item linking to its client.

const internals = {
    a: answerTexts,
    pageSize: 50,
    day: /^\d{4}-\d{2}-\d{2}$/,

    field: (query: Record<string, unknown>, name: string): string => (typeof query[name] === 'string' ? query[name] : ''),

    groups(items: readonly AgendaItem[]) {

        const byDay = new Map<string, AgendaItem[]>();
        for (const item of items) {
            byDay.set(item.fecha, [...byDay.get(item.fecha) ?? [], item]);
        }

        return [...byDay].map(([fecha, dayItems]) => ({
            id: `dia-${fecha}`,
            heading: formatCalendarDay(fecha),
            items: dayItems.map((item) => ({
                name: item.nombre,
                cuit: item.displayCuit,
                href: `/panel/clientes/${item.displayCuit}`,
                kind: item.tipo,
                description: item.descripcion,
                amount: item.importe === null ? null : formatMoney(item.importe)
            }))
        }));
    }
};

export const agendaRoutes = (context: PanelContext): ServerRoute[] => [
    {
        method: 'GET',
        path: panelPaths.agenda,
        options: { auth: false },
        handler: withSession(context, async (request, h, session) => {

            const desde = internals.field(request.query, 'desde');
            const hasta = internals.field(request.query, 'hasta');
            const pagina = internals.field(request.query, 'pagina') || '1';
            const page = (values: Record<string, unknown>) => renderPage(h, context, request, 'agenda', { title: internals.a.agendaTitle, desde, hasta, ...values }, session);
            if ((desde && !internals.day.test(desde)) || (hasta && !internals.day.test(hasta)) || !/^[1-9]\d{0,5}$/.test(pagina)) {
                return page({ error: internals.a.badDate }).code(400);
            }

            const pageNumber = Number(pagina);
            let agenda;
            try {
                agenda = await listAgenda(context.deps, session.principal, {
                    path: {},
                    query: {
                        ...(desde ? { desde } : {}),
                        ...(hasta ? { hasta } : {}),
                        limit: String(internals.pageSize),
                        offset: String((pageNumber - 1) * internals.pageSize)
                    }
                });
            }
            catch (err) {
                if (isDomainError(err) && err.kind === 'invalid') {
                    return page({ error: err.message }).code(400);
                }

                throw err;
            }

            const { filters, pagination } = agenda;
            const pages = Math.max(1, Math.ceil(pagination.total / internals.pageSize));
            const link = (to: number) => `${panelPaths.agenda}?${new URLSearchParams({ desde: filters.desde, hasta: filters.hasta, pagina: String(to) }).toString()}`;
            return page({
                desde: filters.desde,
                hasta: filters.hasta,
                range: internals.a.agendaRange(formatCalendarDay(filters.desde), formatCalendarDay(filters.hasta), formatCount(pagination.total)),
                groups: internals.groups(agenda.data),
                paging: pages > 1 ? {
                    label: panelTexts.pageOf(pageNumber, pages),
                    previous: pageNumber > 1 ? link(pageNumber - 1) : null,
                    next: pageNumber < pages ? link(pageNumber + 1) : null
                } : null
            });
        })
    }
];
