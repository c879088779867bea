import type { ArcaServiceKey } from '../hosts.js';
import { arcaHosts, arcaPaths, arcaServices, logicalUrl } from '../hosts.js';
import { failure } from './failures.js';
import type { HttpResponse, HttpSession, RequestSpec } from './http.js';

// Opening a service from the portal (AUTHORITY.md: Opening a service): GET the token/sign pair
// at /portal/api/servicios/{LOGIN CUIT}/servicio/{name}/autorizacion, then POST it as a form to
// the service's entry URL; the service sets its own cookies and answers with its landing page.
// Not adhered: a 200 without token/sign (never adhere on the taxpayer's behalf). A portal
// answer that is not JSON (the login page) means the portal session ended.

// A GET on the portal's JSON API, as the portal's own page sends it.
export const portalApiRequest = (path: string): RequestSpec => ({
    url: logicalUrl('portal', path),
    accept: 'application/json, text/plain, */*',
    referer: `https://${arcaHosts.portal}${arcaPaths.portalApp}`
});

// Whether the portal answered its JSON API as a session that ended: refused, or its login
// page (a 200 with HTML) instead of JSON.
export const portalSessionEnded = (response: HttpResponse): boolean =>
    response.status === 401 || response.status === 403 || (response.status === 200 && response.json() === undefined && /<html|<form/i.test(response.text()));

export const openService = async (http: HttpSession, loginCuit: string, key: ArcaServiceKey): Promise<HttpResponse> => {

    const service = arcaServices[key];
    const authorization = await http.request(portalApiRequest(arcaPaths.authorization(loginCuit, service.name)), (response) => {

        if (portalSessionEnded(response)) {
            throw failure('session_expired', `portal (${service.name})`);
        }

        const body = response.json() as { token?: unknown; sign?: unknown; adherido?: unknown } | undefined;

        if (response.status !== 200 || !body || typeof body !== 'object') {
            throw http.unexpected(response, 'portal', `autorizacion ${service.name}`, `HTTP ${response.status}`);
        }

        if (typeof body.token !== 'string' || typeof body.sign !== 'string' || !body.token || !body.sign) {
            throw failure('not_adhered', service.name);
        }

        http.secret(body.token);
        http.secret(body.sign);
        return { token: body.token, sign: body.sign };
    });

    return http.request({
        method: 'POST',
        url: logicalUrl(service.host, service.entry),
        origin: `https://${arcaHosts.portal}`,
        referer: `https://${arcaHosts.portal}/`,
        form: authorization
    }, (response) => {

        if (response.status !== 200) {
            throw http.unexpected(response, key, 'entrada', `HTTP ${response.status}`);
        }

        return response;
    });
};
