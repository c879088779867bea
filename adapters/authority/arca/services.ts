import type { ArcaServiceKey } from '../hosts.js';
import { arcaHosts, arcaPaths, arcaServices, logicalUrl } from '../hosts.js';
import { failure, isAuthorityFailure } from './failures.js';
import type { HttpResponse, HttpSession } from './http.js';

// Opening a service from the portal (docs/authority.md: Opening a service): GET the token/sign pair
// at /portal/api/servicios/{LOGIN CUIT}/servicio/{name}/autorizacion, then POST it as a form to
// the service's entry URL; the service sets its own cookies and answers with its landing page.
// Not adhered: a 200 without token/sign (never adhere on the taxpayer's behalf). A portal
// answer that is not JSON (the login page) means the portal session ended (portalJson).

// The one way the portal's JSON API is called, as the portal's own page calls it: its Accept
// and Referer; a refusal or its login page (a 200 with HTML) instead of JSON means the portal
// session ended; anything else that is not a JSON object, or that `read` cannot make sense of
// (it throws an unexpected_page failure), is an unknown page, captured.
export const portalJson = <T = Record<string, unknown>>(
    http: HttpSession,
    path: string,
    step: string,
    read: (body: Record<string, unknown>) => T = (body) => body as T,
    options: { touchedPassword?: boolean } = {}
): Promise<T> => {

    return http.request({
        url: logicalUrl('portal', path),
        accept: 'application/json, text/plain, */*',
        referer: `https://${arcaHosts.portal}${arcaPaths.portalApp}`
    }, (response: HttpResponse) => {

        const body = response.json();
        if (response.status === 401 || response.status === 403 || (response.status === 200 && body === undefined && /<html|<form/i.test(response.text()))) {
            throw failure('session_expired', `portal (${step})`, options);
        }

        if (response.status !== 200 || !body || typeof body !== 'object' || Array.isArray(body)) {
            throw http.unexpected(response, 'portal', step, `HTTP ${response.status}`, options);
        }

        try {
            return read(body as Record<string, unknown>);
        }
        catch (err) {
            throw isAuthorityFailure(err) && err.kind === 'unexpected_page' ? http.unexpected(response, 'portal', step, err.detail, options) : err;
        }
    });
};

export const openService = async (http: HttpSession, loginCuit: string, key: ArcaServiceKey, options: { timeoutMs?: number } = {}): Promise<HttpResponse> => {

    const service = arcaServices[key];
    const body = await portalJson(http, arcaPaths.authorization(loginCuit, service.name), `autorizacion ${service.name}`);
    if (typeof body.token !== 'string' || typeof body.sign !== 'string' || !body.token || !body.sign) {
        throw failure('not_adhered', service.name);
    }

    http.secret(body.token);
    http.secret(body.sign);
    const authorization = { token: body.token, sign: body.sign };

    return http.request({
        method: 'POST',
        url: logicalUrl(service.host, service.entry),
        origin: `https://${arcaHosts.portal}`,
        referer: `https://${arcaHosts.portal}/`,
        form: authorization,
        ...options
    }, (response) => {

        if (response.status !== 200) {
            throw http.unexpected(response, key, 'entrada', `HTTP ${response.status}`);
        }

        return response;
    });
};
