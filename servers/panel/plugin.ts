import { plugin as crumb } from '@hapi/crumb';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { Ports } from '../../core/ports/index.js';
import { publicUrls } from '../http/public-urls.js';
import { clientFormRoutes } from './client-forms.js';
import { clientRoutes } from './client-routes.js';
import { errorPageText, panelRoutes, renderErrorPage } from './routes.js';
import { registerSessionCookie, sessionCookie, sessionStore } from './session.js';

// The accountants' panel under /panel (docs/panel.md): server-rendered Spanish pages over the
// same use cases as the REST API, with a server-side session cookie and CSRF tokens on every
// form (@hapi/crumb, hapi's own plugin: a per-browser token in a cookie that every POST must
// echo in its form, so another site cannot post on the user's behalf).

export interface PanelOptions {
    publicUrl?: string | undefined;
    trustProxy: number;
}

const internals = {
    isPanel: (path: string): boolean => /^\/panel(?:\/|$)/.test(path),

    // What every page loads: cacheable, and no CSRF cookie for them.
    assets: new Set(['/panel/estilos.css', '/panel/icono.svg', '/panel/copiar.js']),

    // Every panel response: only the service's own resources, never framed, never cached (pages
    // show a client's data), no sniffing, and the address kept inside the site.
    headers: {
        'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'",
        'X-Frame-Options': 'DENY',
        'Referrer-Policy': 'same-origin',
        'X-Content-Type-Options': 'nosniff'
    } as Record<string, string>,

    onPreResponse(request: Request, h: ResponseToolkit) {

        if (!internals.isPanel(request.path)) {
            return h.continue;
        }

        let response = request.response;
        if (!response || 'isBoom' in response) {
            return h.continue;         // the server's error handling answers first (errors.ts)
        }

        const source = response.source as unknown;
        if (response.statusCode >= 400 && source && typeof source === 'object' && typeof (source as { error?: unknown }).error === 'string') {
            const html = renderErrorPage(errorPageText(response.statusCode, (source as { error: string }).error));
            const page = h.response(html).type('text/html; charset=utf-8').code(response.statusCode);
            for (const [name, value] of Object.entries(response.headers)) {
                if (!/^content-(type|length)$/i.test(name) && value !== undefined) {
                    page.header(name, String(value));
                }
            }

            response = page;
        }

        for (const [name, value] of Object.entries(internals.headers)) {
            response.header(name, value);
        }

        if (!internals.assets.has(request.path)) {
            response.header('Cache-Control', 'no-store');
        }

        return response;
    }
};

export const registerPanel = async (server: Server, deps: Ports, options: PanelOptions): Promise<void> => {

    const cookie = sessionCookie(options.publicUrl);
    registerSessionCookie(server, cookie);
    const crumbKey = cookie.secure ? '__Host-arcasync-crumb' : 'arcasync-crumb';
    await server.register({
        plugin: crumb,
        options: {
            key: crumbKey,
            restful: false,
            autoGenerate: true,
            logUnauthorized: false,
            cookieOptions: { path: '/', isSecure: cookie.secure, isHttpOnly: true, isSameSite: 'Strict', ignoreErrors: true, clearInvalid: true },
            // Only the panel's pages: the REST API, MCP and OAuth set no such cookie.
            skip: (request: Request) => !internals.isPanel(request.path) || internals.assets.has(request.path)
        }
    });

    const urls = publicUrls(server, options.publicUrl, options.trustProxy);
    const baseUrl = (request: Request): string => urls.baseFor(request);
    const context = { deps, sessions: sessionStore(deps, cookie), crumbKey, trustProxy: options.trustProxy, baseUrl };
    server.route(panelRoutes(context));
    server.route(clientRoutes(context));
    server.route(clientFormRoutes(context));
    server.ext('onPreResponse', internals.onPreResponse);
};
