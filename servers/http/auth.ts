import type { Server } from '@hapi/hapi';
import type { Principal } from '../../core/domain/access.js';
import type { ReadParameterName, ReadRequest } from '../../core/domain/read-request.js';
import type { Ports } from '../../core/ports/index.js';
import { chargeRequest } from '../../core/use-cases/charge-request.js';
import { findTokenUser } from '../../core/use-cases/find-token-user.js';
import { bearerToken } from './bearer.js';
import { toBoom } from './errors.js';

// The bearer scheme (docs/api.md, Access): token -> user -> account flags -> per-user rate limits, all
// in the core's findTokenUser and chargeRequest; here only the header is read.

declare module '@hapi/hapi' {
    interface UserCredentials extends Principal {}
    // A read route names the parameters its use case takes, for the OpenAPI document.
    interface RouteOptionsApp {
        parameters?: readonly ReadParameterName[];
        pagesCount?: 'periods';
        // `desde` and `hasta` read as months (the IVA position).
        variant?: 'months';
        // The address holds a secret: logs show the route's pattern instead.
        secretPath?: boolean;
    }
}

export const registerBearerAuth = (server: Server, deps: Ports): void => {

    server.auth.scheme('arcasync-bearer', () => ({
        async authenticate(request, h) {

            try {
                // Routed already: a route about one CUIT has it in its params (see Principal.named).
                const named = typeof request.params.cuit === 'string' ? request.params.cuit : undefined;
                const user = await findTokenUser(deps, bearerToken(request.headers.authorization), named);
                // Known from here on, for the request log, even when a limit refuses the request.
                request.app.caller = { userId: user.userId, accountId: user.accountId };
                const principal = await chargeRequest(deps, user);
                return h.authenticated({ credentials: { user: principal } });
            }
            catch (err) {
                throw toBoom(err);
            }
        }
    }));

    server.auth.strategy('bearer', 'arcasync-bearer');
    server.auth.default('bearer');
};

// The `{cuit}` path parameter as sent; the core checks it.
export const cuitParam = (request: { params: Record<string, unknown> }): string => String(request.params.cuit);

// What a read endpoint hands the core: its path and query as hapi parsed them, unchecked.
export const readRequestOf = (request: {
    params: Record<string, unknown>;
    query: Record<string, unknown>;
}): ReadRequest => ({ path: request.params, query: request.query });

export const principalOf = (request: { auth: { credentials: { user?: Principal } } }): Principal => request.auth.credentials.user!;
