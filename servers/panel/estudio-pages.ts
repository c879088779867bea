import type { Request, ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { isDomainError } from '../../core/domain/errors.js';
import { createToken } from '../../core/use-cases/staff/create-token.js';
import { listTokens } from '../../core/use-cases/staff/list-tokens.js';
import { listOAuthConnections, revokeOAuthConnection } from '../../core/use-cases/staff/oauth-connections.js';
import { revokeToken } from '../../core/use-cases/staff/revoke-token.js';
import { formatMoment } from './client-format.js';
import { copyScript } from './copy-once.js';
import { estudioViews } from './estudio-views.js';
import { estudioTexts } from './estudio-texts.js';
import type { PanelContext } from './respond.js';
import { formField, formPayload, redirectTo, renderPage, renderTemplate, withSession } from './respond.js';
import type { PanelSession } from './session.js';
import { panelTexts } from './texts.js';

// A user's own API tokens (/panel/tokens) and the MCP clients they authorized
// (/panel/conexiones), through the same use cases as the CLI's staff commands: owners and
// members alike manage only their own (a token inherits its user's permissions). A token is
// shown once, on the page that answers its creation, never in the list; revoking asks first.

const internals = {
    e: estudioTexts,
    tokens: '/panel/tokens',
    connections: '/panel/conexiones',

    tokenId: (value: string): number | null => (/^[1-9]\d{0,15}$/.test(value) ? Number(value) : null),
    // A stored grant id: the SHA-256 digest, in hex.
    connectionId: (value: string): string | null => (/^[0-9a-f]{64}$/.test(value) ? value : null),

    notFound: (h: ResponseToolkit, context: PanelContext, request: Request, session: PanelSession): ResponseObject => renderPage(
        h, context, request, 'error', { title: panelTexts.errorTitle, message: panelTexts.notFound }, session
    ).code(404),

    async ownTokens(context: PanelContext, session: PanelSession) {

        const { tokens } = await listTokens(context.deps, { userId: session.principal.userId });
        return tokens.filter((token) => token.revokedAt === null).map((token) => {

            const name = token.name ?? internals.e.unnamed;
            return {
                id: token.id,
                name,
                created: formatMoment(token.createdAt),
                lastUsed: token.lastUsedAt === null ? internals.e.neverUsed : formatMoment(token.lastUsedAt),
                revoke: `${internals.tokens}/${token.id}/revocar`,
                revokeLabel: `${internals.e.revoke} ${name}`
            };
        });
    },

    async tokensPage(h: ResponseToolkit, context: PanelContext, request: Request, session: PanelSession, values: Record<string, unknown>) {

        return renderTemplate(h, context, request, estudioViews.tokens, 'tokens', {
            title: internals.e.tokensTitle, e: internals.e, tokens: await internals.ownTokens(context, session), ...values
        }, session);
    },

    async ownConnections(context: PanelContext, session: PanelSession) {

        const connections = await listOAuthConnections(context.deps, { userId: session.principal.userId });
        return connections.map((connection) => {

            const name = connection.clientName ?? internals.e.unknownClient;
            return {
                id: connection.id,
                name,
                when: connection.grantedAt ? formatMoment(connection.grantedAt) : '',
                scopes: connection.scopes,
                revoke: `${internals.connections}/${connection.id}/revocar`,
                revokeLabel: `${internals.e.revoke} ${name}`
            };
        });
    }
};

// `{list}/{id}/revocar`: GET asks (naming what goes), POST revokes the user's own one; an id
// that is malformed, gone or another user's gets the one 404 page.
const revocationRoutes = <Id>(context: PanelContext, spec: {
    list: string;
    page: string;
    title: string;
    question(name: string): string;
    parse(value: string): Id | null;
    find(session: PanelSession, id: Id | null): Promise<{ name: string; revoke: string } | undefined>;
    revoke(session: PanelSession, id: Id): Promise<unknown>;
    done: string;
}): ServerRoute[] => [
    {
        method: 'GET',
        path: `${spec.list}/{id}/revocar`,
        options: { auth: false },
        handler: withSession(context, async (request, h, session) => {

            const found = await spec.find(session, spec.parse(String(request.params.id)));
            if (!found) {
                return internals.notFound(h, context, request, session);
            }

            return renderTemplate(h, context, request, estudioViews.confirm, spec.page, {
                title: spec.title, e: internals.e, question: spec.question(found.name), action: found.revoke, back: spec.list
            }, session);
        })
    },
    {
        method: 'POST',
        path: `${spec.list}/{id}/revocar`,
        options: { auth: false, payload: formPayload },
        handler: withSession(context, async (request, h, session) => {

            const id = spec.parse(String(request.params.id));
            try {
                if (id === null) {
                    return internals.notFound(h, context, request, session);
                }

                await spec.revoke(session, id);
            }
            catch (err) {
                if (isDomainError(err) && err.kind === 'not_found') {
                    return internals.notFound(h, context, request, session);
                }

                throw err;
            }

            return redirectTo(h, spec.done);
        })
    }
];

export const estudioRoutes = (context: PanelContext): ServerRoute[] => [
    {
        method: 'GET',
        path: '/panel/copiar.js',
        options: { auth: false },
        handler: (_request, h) => h.response(copyScript).type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=3600')
    },
    {
        method: 'GET',
        path: internals.tokens,
        options: { auth: false },
        handler: withSession(context, (request, h, session) => internals.tokensPage(h, context, request, session, {
            notice: request.query.revocado === '1' ? internals.e.tokenRevoked : null
        }))
    },
    {
        method: 'POST',
        path: internals.tokens,
        options: { auth: false, payload: formPayload },
        handler: withSession(context, async (request, h, session) => {

            const name = formField(request.payload, 'nombre');
            try {
                const { token } = await createToken(context.deps, { userId: session.principal.userId, name });
                // Shown on this answer only (no-store, like every panel page): never stored, listed or sent again.
                return await internals.tokensPage(h, context, request, session, {
                    created: { token, curl: internals.e.curl(context.baseUrl(request), token) }
                });
            }
            catch (err) {
                if (isDomainError(err) && err.kind === 'invalid') {
                    return (await internals.tokensPage(h, context, request, session, { error: err.message, name })).code(400);
                }

                throw err;
            }
        })
    },
    ...revocationRoutes(context, {
        list: internals.tokens,
        page: 'tokens',
        title: internals.e.revokeTokenTitle,
        question: internals.e.revokeTokenQuestion,
        parse: internals.tokenId,
        find: async (session, id) => (await internals.ownTokens(context, session)).find((one) => one.id === id),
        revoke: (session, id) => revokeToken(context.deps, { id, userId: session.principal.userId }),
        done: `${internals.tokens}?revocado=1`
    }),
    {
        method: 'GET',
        path: internals.connections,
        options: { auth: false },
        handler: withSession(context, async (request, h, session) => renderTemplate(h, context, request, estudioViews.connections, 'connections', {
            title: internals.e.connectionsTitle,
            e: internals.e,
            connections: await internals.ownConnections(context, session),
            notice: request.query.revocada === '1' ? internals.e.connectionRevoked : null
        }, session))
    },
    ...revocationRoutes(context, {
        list: internals.connections,
        page: 'connections',
        title: internals.e.revokeConnectionTitle,
        question: internals.e.revokeConnectionQuestion,
        parse: internals.connectionId,
        find: async (session, id) => (await internals.ownConnections(context, session)).find((one) => one.id === id),
        revoke: (session, id) => revokeOAuthConnection(context.deps, { userId: session.principal.userId, id }),
        done: `${internals.connections}?revocada=1`
    })
];
