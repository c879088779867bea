import type { Request, ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { Cuit } from '../../core/domain/cuit.js';
import { parseCuit } from '../../core/domain/cuit.js';
import { isDomainError } from '../../core/domain/errors.js';
import type { CuitHealthView } from '../../core/use-cases/cuit-health.js';
import { healthOfCuit } from '../../core/use-cases/cuit-health.js';
import { getNotification } from '../../core/use-cases/get-notification.js';
import { markNotificationRead } from '../../core/use-cases/mark-notification-read.js';
import { ivaTab, monotributoTab } from './client-answers.js';
import type { ClientTab, InvoiceQuery } from './client-page.js';
import { ccmaTab, clientBase, clientHeader, healthTab, invoicesTab, notificationPath, notificationsTab, notificationView, sctTab } from './client-page.js';
import { answerTexts } from './answer-texts.js';
import { clientTexts } from './client-texts.js';
import { clientWriteLinks } from './client-forms.js';
import { clientTagging } from './tags-page.js';
import type { ClientView } from './client-views.js';
import { clientViews } from './client-views.js';
import { DownloadTooLarge, invoiceDownload } from './invoice-downloads.js';
import type { PanelContext } from './respond.js';
import { withSession } from './respond.js';
import type { PanelSession } from './session.js';
import { panelTexts } from './texts.js';
import { views } from './views.js';

// The client's pages (docs/panel.md, El cliente): /panel/clientes/{cuit} and its tabs, the
// period's downloads, a notification's page and the forms that mark it read or unread. A CUIT
// the user does not manage, a malformed one and a missing one get the same 404 page; with a
// subscription that is not active no client data is read, only the API's message is shown.

interface Visit {
    request: Request;
    h: ResponseToolkit;
    session: PanelSession;
    cuit: Cuit;
}

class PanelRefusal extends Error {

    constructor(readonly status: number, message: string) {

        super(message);
    }
}

const internals = {
    c: clientTexts,
    t: panelTexts,
    arcaId: /^[A-Za-z0-9._-]{1,40}$/,
    form: { parse: true, allow: 'application/x-www-form-urlencoded', maxBytes: 16 * 1024 } as const,

    crumbOf: (request: Request): string => String((request.plugins as Record<string, unknown>).crumb ?? ''),

    common: (context: PanelContext, request: Request, session: PanelSession, page: string) => ({
        t: internals.t,
        c: internals.c,
        a: answerTexts,
        crumbKey: context.crumbKey,
        crumb: internals.crumbOf(request),
        session: true,
        whoami: internals.t.signedInAs(session.email),
        page
    }),

    // A page number from the query: absent is the first; anything but 1 to 999999 is refused.
    pageNumber(query: Record<string, unknown>, name: string): number {

        const raw = query[name];
        if (raw === undefined) {
            return 1;
        }

        if (typeof raw !== 'string' || !/^[1-9]\d{0,5}$/.test(raw)) {
            throw new PanelRefusal(400, internals.c.badPage);
        }

        return Number(raw);
    },

    // desde / hasta as the invoice use cases' from_date / to_date; both empty is their default.
    period(query: Record<string, unknown>): Record<string, string> {

        const from = query.desde ?? '';
        const to = query.hasta ?? '';
        if (typeof from !== 'string' || typeof to !== 'string') {
            throw new PanelRefusal(400, internals.c.badPeriod);
        }

        return { ...(from ? { from_date: from } : {}), ...(to ? { to_date: to } : {}) };
    },

    invoiceQuery: (query: Record<string, unknown>): InvoiceQuery => ({
        period: internals.period(query),
        issuedPage: internals.pageNumber(query, 'emitidos'),
        receivedPage: internals.pageNumber(query, 'recibidos')
    }),

    arcaIdOf(request: Request): string {

        const id = String(request.params.id ?? '');
        if (!internals.arcaId.test(id)) {
            throw new PanelRefusal(404, internals.t.notFound);
        }

        return id;
    }
};

export const clientRoutes = (context: PanelContext): ServerRoute[] => {

    const { deps } = context;

    const errorPage = (visit: Omit<Visit, 'cuit'>, status: number, message: string): ResponseObject => visit.h.response(views.error({
        ...internals.common(context, visit.request, visit.session, 'error'), title: internals.t.errorTitle, message
    })).type('text/html; charset=utf-8').code(status);

    // The session's lookup also reads the client the page names (principal.named), so the
    // tab's use cases need not ask again whether the user manages it.
    const named = (request: Request) => {

        const cuit = parseCuit(String(request.params.cuit));
        return cuit ? { cuit } : {};
    };

    // Signed in, a well-formed CUIT, an active subscription; every refusal a Spanish page.
    const visiting = (work: (visit: Visit) => Promise<ResponseObject>) => withSession(context, async (request, h, session) => {

        const cuit = parseCuit(String(request.params.cuit));
        const visit = { request, h, session };
        if (!cuit) {
            return errorPage(visit, 404, internals.t.notFound);
        }

        try {
            return await work({ ...visit, cuit });
        }
        catch (err) {
            if (err instanceof PanelRefusal || err instanceof DownloadTooLarge) {
                return errorPage(visit, err instanceof PanelRefusal ? err.status : 400, err.message);
            }

            if (isDomainError(err) && err.kind === 'not_found') {
                return errorPage(visit, 404, internals.t.notFound);
            }

            if (isDomainError(err) && err.kind === 'forbidden') {
                return errorPage(visit, 403, err.message);
            }

            if (isDomainError(err) && err.kind === 'invalid') {
                return errorPage(visit, 400, internals.c.badPeriod);
            }

            throw err;
        }
    }, named);

    // A tab: the client's header (its health, which also settles that the user may see it)
    // and what the tab reads.
    const tab = (name: ClientTab, view: ClientView, read: (visit: Visit, health: Promise<CuitHealthView>) => Promise<object>) => visiting(async (visit) => {

        const reading = healthOfCuit(deps, visit.session.principal, visit.cuit);
        const [health, values, tagging] = await Promise.all([reading, read(visit, reading), clientTagging(context, visit.request, visit.session, visit.cuit)]);
        const html = clientViews[view]({
            ...internals.common(context, visit.request, visit.session, 'cliente'), ...clientHeader(health, visit.cuit, name), ...values, ...tagging,
            ...clientWriteLinks(visit.cuit, visit.request.query)
        });
        return visit.h.response(html).type('text/html; charset=utf-8');
    });

    // Back to the notification's page, or to the inbox's page the row's form came from.
    const mark = (read: boolean) => visiting(async (visit) => {

        const arcaId = internals.arcaIdOf(visit.request);
        await markNotificationRead(deps, visit.session.principal, { cuit: visit.cuit, arcaId, read });
        const back = (visit.request.payload as Record<string, unknown> | null)?.volver;
        return visit.h.redirect(typeof back === 'string' && /^[1-9]\d{0,5}$/.test(back)
            ? `${clientBase(visit.cuit)}/notificaciones?pagina=${back}`
            : `${notificationPath(visit.cuit, arcaId)}?marcada=${read ? 'leida' : 'no-leida'}`).code(303);
    });

    const download = (format: 'csv' | 'xlsx') => visiting(async (visit) => {

        const file = await invoiceDownload(deps, visit.session.principal, visit.cuit, internals.period(visit.request.query), format);
        return visit.h.response(file.body).type(file.contentType).header('Content-Disposition', `attachment; filename="${file.name}"`);
    });

    return [
        {
            method: 'GET',
            path: '/panel/clientes/{cuit}',
            options: { auth: false },
            handler: tab('comprobantes', 'invoices', (visit) => invoicesTab(deps, visit.session.principal, visit.cuit, internals.invoiceQuery(visit.request.query)))
        },
        {
            method: 'GET',
            path: '/panel/clientes/{cuit}/monotributo',
            options: { auth: false },
            handler: tab('monotributo', 'monotributo', (visit) => monotributoTab(deps, visit.session.principal, visit.cuit))
        },
        {
            method: 'GET',
            path: '/panel/clientes/{cuit}/iva',
            options: { auth: false },
            handler: tab('iva', 'iva', (visit) => ivaTab(deps, visit.session.principal, visit.cuit))
        },
        { method: 'GET', path: '/panel/clientes/{cuit}/comprobantes.csv', options: { auth: false }, handler: download('csv') },
        { method: 'GET', path: '/panel/clientes/{cuit}/comprobantes.xlsx', options: { auth: false }, handler: download('xlsx') },
        {
            method: 'GET',
            path: '/panel/clientes/{cuit}/cuenta-tributaria',
            options: { auth: false },
            handler: tab('sct', 'sct', (visit) => sctTab(deps, visit.session.principal, visit.cuit))
        },
        {
            method: 'GET',
            path: '/panel/clientes/{cuit}/ccma',
            options: { auth: false },
            handler: tab('ccma', 'ccma', (visit) => ccmaTab(deps, visit.session.principal, visit.cuit, internals.pageNumber(visit.request.query, 'pagina')))
        },
        {
            method: 'GET',
            path: '/panel/clientes/{cuit}/notificaciones',
            options: { auth: false },
            handler: tab('notificaciones', 'notifications', (visit) => notificationsTab(
                deps, visit.session.principal, visit.cuit, internals.pageNumber(visit.request.query, 'pagina')
            ))
        },
        {
            method: 'GET',
            path: '/panel/clientes/{cuit}/notificaciones/{id}',
            options: { auth: false },
            handler: tab('notificaciones', 'notification', async (visit) => {

                const notification = await getNotification(deps, visit.session.principal, { cuit: visit.cuit, arcaId: internals.arcaIdOf(visit.request) });
                const marked = visit.request.query.marcada;
                return {
                    notification: notificationView(visit.cuit, notification),
                    notice: marked === 'leida' ? internals.c.markedRead : marked === 'no-leida' ? internals.c.markedUnread : null
                };
            })
        },
        { method: 'POST', path: '/panel/clientes/{cuit}/notificaciones/{id}/leida', options: { auth: false, payload: internals.form }, handler: mark(true) },
        { method: 'POST', path: '/panel/clientes/{cuit}/notificaciones/{id}/no-leida', options: { auth: false, payload: internals.form }, handler: mark(false) },
        {
            method: 'GET',
            path: '/panel/clientes/{cuit}/estado',
            options: { auth: false },
            handler: tab('estado', 'health', async (_visit, health) => healthTab(await health))
        }
    ];
};
