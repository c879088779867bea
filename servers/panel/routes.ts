import type { ServerRoute } from '@hapi/hapi';
import { isDomainError } from '../../core/domain/errors.js';
import { messages } from '../../core/domain/messages.js';
import { signIn } from '../../core/use-cases/sign-in.js';
import { clientAddress } from '../http/client-address.js';
import { accountRoutes } from './account-page.js';
import { agendaRoutes } from './agenda-page.js';
import { estudioRoutes } from './estudio-pages.js';
import { importRoutes } from './import-page.js';
import { tagRoutes } from './tags-page.js';
import { teamRoutes } from './team-page.js';
import { portfolioRoutes } from './portfolio-page.js';
import type { PanelContext } from './respond.js';
import { formField, formPayload, panelPaths, redirectTo, renderPage } from './respond.js';
import { panelIcon, panelStylesheet } from './styles.js';
import { subscriptionRoutes } from './subscription-page.js';
import { panelTexts } from './texts.js';
import { views } from './views.js';

export type { PanelContext } from './respond.js';

// The sign-in and sign-out routes, the assets, and every page's routes (each page in a module
// of its own, over respond.ts's helpers).
const internals = {
    signInPath: panelPaths.signIn,
    t: panelTexts,
    page: renderPage,
    redirect: redirectTo,
    formField,
    form: formPayload
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
        ...portfolioRoutes(context),
        ...accountRoutes(context),
        ...agendaRoutes(context),
        ...subscriptionRoutes(context),
        ...estudioRoutes(context),
        ...tagRoutes(context),
        ...teamRoutes(context),
        ...importRoutes(context)
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

    // The database away says the panel's own words; any other unavailability, its message.
    if (status === 503) {
        return message === messages.unavailable ? panelTexts.unavailable : message;
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
