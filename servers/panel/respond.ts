import type { Request, ResponseObject, ResponseToolkit } from '@hapi/hapi';
import { assertMayManageAccount, assertSubscriptionActive } from '../../core/domain/access.js';
import { isDomainError } from '../../core/domain/errors.js';
import type { Cuit } from '../../core/domain/cuit.js';
import type { Ports } from '../../core/ports/index.js';
import type { PageTemplate } from '../pages/engine.js';
import type { PanelSession, SessionStore } from './session.js';
import { answerTexts } from './answer-texts.js';
import { panelTexts } from './texts.js';
import type { PanelView } from './views.js';
import { views } from './views.js';

// What every panel route shares: the page it renders, its redirects and forms, and the session
// it requires.

export interface PanelContext {
    deps: Ports;
    sessions: SessionStore;
    crumbKey: string;
    trustProxy: number;
    // {base_url} as this request reached it (PUBLIC_URL, or where the server listens).
    baseUrl(request: Request): string;
}

export const panelPaths = {
    signIn: '/panel/ingresar',
    portfolio: '/panel',
    account: '/panel/cuenta',
    subscription: '/panel/suscripcion',
    agenda: '/panel/agenda'
};

const internals = {
    crumbOf: (request: Request): string => String((request.plugins as Record<string, unknown>).crumb ?? ''),

    subscriptionActive(session: PanelSession): boolean {

        try {
            assertSubscriptionActive(session.principal);
            return true;
        }
        catch {
            return false;
        }
    }
};

export const renderPage = (
    h: ResponseToolkit, context: PanelContext, request: Request, view: PanelView, values: Record<string, unknown>, session: PanelSession | null
): ResponseObject => renderTemplate(h, context, request, views[view], view, values, session);

// The same for another module's templates (compiled on views.ts's engine), `page` naming it.
export const renderTemplate = (
    h: ResponseToolkit, context: PanelContext, request: Request, template: PageTemplate, page: string,
    values: Record<string, unknown>, session: PanelSession | null
): ResponseObject => {

    const html = template({
        t: panelTexts,
        a: answerTexts,
        crumbKey: context.crumbKey,
        crumb: internals.crumbOf(request),
        session: session !== null,
        whoami: session ? panelTexts.signedInAs(session.email) : '',
        page,
        ...values
    });
    return h.response(html).type('text/html; charset=utf-8');
};

// 303: the browser follows with a GET, whatever the form's method was.
export const redirectTo = (h: ResponseToolkit, to: string): ResponseObject => h.redirect(to).code(303);

export const formField = (payload: unknown, name: string): string => {

    const value = payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[name] : undefined;
    return typeof value === 'string' ? value : '';
};

// A field the form may send several times (checkboxes): its non-blank values, trimmed, at most `max`.
export const formValues = (payload: unknown, name: string, max: number): string[] => {

    const value = payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[name] : undefined;
    return [value ?? []].flat().filter((one): one is string => typeof one === 'string' && one.trim() !== '').slice(0, max).map((one) => one.trim());
};

export const formPayload = { parse: true, allow: 'application/x-www-form-urlencoded', maxBytes: 16 * 1024 } as const;

export interface SessionOptions {
    whileInactive?: boolean;
    cuit?: Cuit;
}

export type SessionAct = (request: Request, h: ResponseToolkit, session: PanelSession) => ResponseObject | Promise<ResponseObject>;

// The request's session, or where to send the browser instead: the sign-in page without one,
// and the subscription page while the account's subscription is not active (the same check
// as every API request, read live, so access returns on the next request once it is fixed),
// unless the page is one an inactive account keeps (`whileInactive`). A page about one CUIT
// names it (`cuit`, see SessionStore.current).
const requireSession = async (
    context: PanelContext, request: Request, h: ResponseToolkit, options: SessionOptions
): Promise<{ session: PanelSession } | { redirect: ResponseObject }> => {

    const session = await context.sessions.current(request, options.cuit);
    if (!session) {
        return { redirect: redirectTo(h, panelPaths.signIn) };
    }

    if (!options.whileInactive && !internals.subscriptionActive(session)) {
        return { redirect: redirectTo(h, panelPaths.subscription) };
    }

    return { session };
};

// Every panel page's handler: `act` with the session, or requireSession's redirect. The
// options may depend on the request (the CUIT a client page names). A form's CSRF token is
// checked before this, by the crumb plugin (plugin.ts).
export const withSession = (
    context: PanelContext, act: SessionAct, options: SessionOptions | ((request: Request) => SessionOptions) = {}
) => async (request: Request, h: ResponseToolkit): Promise<ResponseObject> => {

    const required = await requireSession(context, request, h, typeof options === 'function' ? options(request) : options);
    return 'redirect' in required ? required.redirect : act(request, h, required.session);
};

// The error page, with the signed-in user's navigation when there is one.
export const errorPage = (
    h: ResponseToolkit, context: PanelContext, request: Request, session: PanelSession | null, message: string, code: number
): ResponseObject => renderPage(h, context, request, 'error', { title: panelTexts.errorTitle, message }, session).code(code);

// What an owner's form shows of the core's refusals; any other error is the server's to answer.
const ownerRefusals: Record<string, number> = { forbidden: 403, invalid: 400, not_found: 404, conflict: 409, rate_limited: 429 };

// The owners' pages (tags, the team): the core's rule (access.ts) asked first, before any
// lookup, and again by each use case. A refusal is shown with its status: on the form's page
// again when `again` draws it, else on the error page (a 404 as the one "not found" page);
// a member's 403 is always the error page.
export const withOwnerSession = (
    context: PanelContext,
    act: SessionAct,
    again?: (request: Request, h: ResponseToolkit, session: PanelSession, error: string) => Promise<ResponseObject>
) => withSession(context, async (request, h, session) => {

    try {
        assertMayManageAccount(session.principal);
        return await act(request, h, session);
    }
    catch (err) {
        const status = isDomainError(err) ? ownerRefusals[err.kind] : undefined;
        if (status === undefined) {
            throw err;
        }

        const message = (err as Error).message;
        if (status === 403 || !again) {
            return errorPage(h, context, request, session, status === 404 ? panelTexts.notFound : message, status);
        }

        return (await again(request, h, session, message)).code(status);
    }
});
