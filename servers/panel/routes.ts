import type { Request, ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { Principal } from '../../core/domain/access.js';
import { assertSubscriptionActive } from '../../core/domain/access.js';
import type { ClientListItem } from '../../core/domain/client.js';
import { categories } from '../../core/domain/client.js';
import { isDomainError } from '../../core/domain/errors.js';
import type { Ports } from '../../core/ports/index.js';
import type { CuitHealthView } from '../../core/use-cases/cuit-health.js';
import { healthOfCuits, listPortfolioHealth } from '../../core/use-cases/cuit-health.js';
import { listCuits } from '../../core/use-cases/list-cuits.js';
import { listTags } from '../../core/use-cases/list-tags.js';
import { signIn } from '../../core/use-cases/sign-in.js';
import { clientAddress } from '../http/client-address.js';
import { formatDay } from './format.js';
import type { PanelSession, SessionStore } from './session.js';
import { panelIcon, panelStylesheet } from './styles.js';
import { panelTexts } from './texts.js';
import type { PanelView } from './views.js';
import { views } from './views.js';

export interface PanelContext {
    deps: Ports;
    sessions: SessionStore;
    crumbKey: string;
    trustProxy: number;
}

const internals = {
    pageSize: 50,
    signInPath: '/panel/ingresar',
    t: panelTexts,

    crumbOf: (request: Request): string => String((request.plugins as Record<string, unknown>).crumb ?? ''),

    page(
        h: ResponseToolkit, context: PanelContext, request: Request, view: PanelView, values: Record<string, unknown>, session: PanelSession | null
    ): ResponseObject {

        const html = views[view]({
            t: internals.t,
            crumbKey: context.crumbKey,
            crumb: internals.crumbOf(request),
            session: session !== null,
            whoami: session ? internals.t.signedInAs(session.email) : '',
            page: view,
            ...values
        });
        return h.response(html).type('text/html; charset=utf-8');
    },

    // 303: the browser follows with a GET, whatever the form's method was.
    redirect: (h: ResponseToolkit, to: string): ResponseObject => h.redirect(to).code(303),

    formField: (payload: unknown, name: string): string => {

        const value = payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[name] : undefined;
        return typeof value === 'string' ? value : '';
    },

    light(health: CuitHealthView | undefined): 'ok' | 'waiting' | 'attention' {

        if (!health) {
            return 'waiting';
        }

        return health.estado === 'ok' ? 'ok' : health.requiereAtencion ? 'attention' : 'waiting';
    },

    regime(item: ClientListItem): string {

        const parts = [
            ...(item.monotributista ? [internals.t.monotributista(item.categoria)] : []),
            ...(item.autonomo ? [internals.t.autonomo] : [])
        ];
        return parts.length ? parts.join(' · ') : internals.t.unknownRegime;
    },

    lastSync(health: CuitHealthView | undefined): string {

        const latest = (health?.sistemas ?? []).map((entry) => entry.syncedAt).filter((at): at is string => at !== null).sort().at(-1);
        return latest ? formatDay(latest) : internals.t.never;
    },

    row(item: ClientListItem, health: CuitHealthView | undefined) {

        const light = internals.light(health);
        return {
            light,
            lightLabel: internals.t.semaphore[light],
            sentence: health?.mensaje ?? '',
            name: item.nombre,
            href: `/panel/clientes/${item.displayCuit}`,
            cuit: item.displayCuit,
            tags: item.etiquetas,
            regime: internals.regime(item),
            lastSync: internals.lastSync(health)
        };
    },

    blocked(principal: Principal): string | null {

        try {
            assertSubscriptionActive(principal);
            return null;
        }
        catch (err) {
            return (err as Error).message;
        }
    },

    // The filter form's fields, as the CUIT list's parameters (list-cuits.ts checks them).
    filters(query: Record<string, unknown>): { form: Record<string, string>; parameters: Record<string, string> } {

        const field = (name: string): string => (typeof query[name] === 'string' ? query[name] : '');
        const form = { etiqueta: field('etiqueta'), regimen: field('regimen'), categoria: field('categoria') };
        return {
            form,
            parameters: {
                ...(form.etiqueta ? { etiquetas: form.etiqueta } : {}),
                ...(form.regimen === 'monotributista' ? { monotributista: 'true' } : form.regimen === 'autonomo' ? { autonomo: 'true' } : {}),
                ...(form.categoria ? { categoria: form.categoria } : {})
            }
        };
    },

    async portfolio(deps: Ports, principal: Principal, pageNumber: number, query: Record<string, unknown>) {

        const offset = (pageNumber - 1) * internals.pageSize;
        const { form, parameters } = internals.filters(query);
        const [list, attention, tags] = await Promise.all([
            listCuits(deps, principal, { query: { ...parameters, limit: String(internals.pageSize), offset: String(offset) } }),
            listPortfolioHealth(deps, principal, { query: { requiere_atencion: 'true', limit: '1' } }),
            listTags(deps, principal, { query: { limit: '100' } })
        ]);
        const kept = new URLSearchParams(Object.entries(form).filter(([, value]) => value !== ''));
        const link = (to: number) => `/panel?${new URLSearchParams([...kept, ['pagina', String(to)]]).toString()}`;
        const healths = await healthOfCuits(deps, principal, list.data.map((item) => item.cuit));
        const byCuit = new Map(healths.map((entry) => [entry.cuit, entry]));
        const rows = list.data.map((item) => ({ synced: item.sistemaRegistralSyncedAt !== null, row: internals.row(item, byCuit.get(item.cuit)) }));
        const groups = [
            { id: 'clientes', title: internals.t.synced, note: null, rows: rows.filter((entry) => entry.synced).map((entry) => entry.row) },
            { id: 'otros', title: internals.t.others, note: internals.t.othersNote, rows: rows.filter((entry) => !entry.synced).map((entry) => entry.row) }
        ].filter((group) => group.rows.length > 0);
        const total = list.pagination.total;
        const pages = Math.max(1, Math.ceil(total / internals.pageSize));
        return {
            total,
            counts: internals.t.counts(total, attention.pagination.total),
            groups,
            paging: pages > 1 ? {
                label: internals.t.pageOf(pageNumber, pages),
                previous: pageNumber > 1 ? link(pageNumber - 1) : null,
                next: pageNumber < pages ? link(pageNumber + 1) : null
            } : null,
            filter: {
                tags: tags.data.map((tag) => ({ value: tag.nombre, selected: tag.nombre === form.etiqueta })),
                regimes: [['monotributista', internals.t.regimes.monotributista], ['autonomo', internals.t.regimes.autonomo]].map(
                    ([value, label]) => ({ value, label, selected: value === form.regimen })
                ),
                categories: categories.map((value) => ({ value, selected: value === form.categoria })),
                active: kept.size > 0
            }
        };
    },

    form: { parse: true, allow: 'application/x-www-form-urlencoded', maxBytes: 16 * 1024 } as const
};

export const panelRoutes = (context: PanelContext): ServerRoute[] => {

    const { deps, sessions } = context;
    return [
        {
            method: 'GET',
            path: '/panel/estilos.css',
            options: { auth: false },
            handler: (_request, h) => h.response(panelStylesheet).type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600')
        },
        {
            method: 'GET',
            path: '/panel/icono.svg',
            options: { auth: false },
            handler: (_request, h) => h.response(panelIcon).type('image/svg+xml').header('Cache-Control', 'public, max-age=86400')
        },
        {
            method: 'GET',
            path: internals.signInPath,
            options: { auth: false },
            handler: async (request, h) => {

                if (await sessions.current(request)) {
                    return internals.redirect(h, '/panel');
                }

                const notice = request.query.salida === '1' ? internals.t.signedOut : request.query.vencida === '1' ? internals.t.sessionEnded : null;
                return internals.page(h, context, request, 'signIn', { title: internals.t.signInTitle, notice, email: '' }, null);
            }
        },
        {
            method: 'POST',
            path: internals.signInPath,
            options: { auth: false, payload: internals.form },
            handler: async (request, h) => {

                const email = internals.formField(request.payload, 'email').trim();
                const password = internals.formField(request.payload, 'password');
                const again = (error: string, code: number) => internals.page(
                    h, context, request, 'signIn', { title: internals.t.signInTitle, error, email }, null
                ).code(code);
                if (!email || !password) {
                    return again(internals.t.missingCredentials, 400);
                }

                let user: Awaited<ReturnType<typeof signIn>>;
                try {
                    user = await signIn(deps, { email, password, address: clientAddress(request, context.trustProxy) });
                }
                catch (err) {
                    if (isDomainError(err) && err.kind === 'rate_limited') {
                        return again(err.message, 429);
                    }

                    throw err;
                }

                if (!user) {
                    return again(internals.t.wrongCredentials, 400);
                }

                // Whatever session the browser had ends: the signed-in one gets a new token.
                await sessions.end(request, h);
                await sessions.start(h, user.id);
                return internals.redirect(h, '/panel');
            }
        },
        {
            method: 'POST',
            path: '/panel/salir',
            options: { auth: false, payload: internals.form },
            handler: async (request, h) => {

                await sessions.end(request, h);
                return internals.redirect(h, `${internals.signInPath}?salida=1`);
            }
        },
        {
            method: 'GET',
            path: '/panel',
            options: { auth: false },
            handler: async (request, h) => {

                const session = await sessions.current(request);
                if (!session) {
                    return internals.redirect(h, internals.signInPath);
                }

                const raw = request.query.pagina as unknown;
                if (raw !== undefined && (typeof raw !== 'string' || !/^[1-9]\d{0,5}$/.test(raw))) {
                    return internals.page(h, context, request, 'error', { title: internals.t.errorTitle, message: internals.t.badPage }, session).code(400);
                }

                const blocked = internals.blocked(session.principal);
                let values;
                try {
                    values = blocked ? { blocked } : await internals.portfolio(deps, session.principal, raw === undefined ? 1 : Number(raw), request.query);
                }
                catch (err) {
                    if (isDomainError(err) && err.kind === 'invalid') {
                        return internals.page(h, context, request, 'error', { title: internals.t.errorTitle, message: err.message }, session).code(400);
                    }

                    throw err;
                }

                return internals.page(h, context, request, 'portfolio', { title: internals.t.portfolioTitle, ...values }, session);
            }
        }
    ];
};

// What a failed /panel request shows: the same Spanish message the JSON answer carries (the
// server's error handling logged it), as a page. A 403 there is the CSRF check's (the panel's
// own handlers answer every other refusal with a page of their own).
export const errorPageText = (status: number, message: string): string => {

    if (status === 403) {
        return panelTexts.formExpired;
    }

    if (status === 404 || status === 405) {
        return panelTexts.notFound;
    }

    if (status === 503) {
        return panelTexts.unavailable;
    }

    return message;
};

export const renderErrorPage = (message: string): string => views.error({
    t: panelTexts,
    title: panelTexts.errorTitle,
    message,
    session: false,
    crumbKey: '',
    crumb: '',
    whoami: '',
    page: 'error'
});
