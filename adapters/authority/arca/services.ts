import type { AuthorityCredentials } from '../../../core/ports/authority-client.js';
import type { ArcaServiceKey } from '../hosts.js';
import { arcaPaths, arcaServices, logicalUrl } from '../hosts.js';
import { failure } from './failures.js';
import { pageText } from './html.js';
import type { HttpResponse, HttpSession } from './http.js';

// Opening a service from the portal: GET the token/sign pair for the CUIT acted for (the
// portal's "acting as" selector: the represented CUIT for a legal entity), then POST it as a
// form to the service's entry URL; the service answers with its landing page.

export interface Landing {
    url: URL;
    html: string;
}

const internals = {
    refusal(response: HttpResponse, service: string): Error {

        const text = pageText(response.text());
        if (/represent/i.test(text)) {
            return failure('represented_unavailable', service);
        }

        if (/adherid|no habilitad|no tiene (el )?servicio/i.test(text)) {
            return failure('not_adhered', service);
        }

        if (response.status === 401) {
            return failure('unavailable', `${service}: sesión del portal vencida`);
        }

        return failure('unexpected_page', `${service}: HTTP ${response.status}`);
    }
};

export const openService = async (http: HttpSession, credentials: AuthorityCredentials, key: ArcaServiceKey): Promise<Landing> => {

    const service = arcaServices[key];
    const authorization = await http.request({
        url: logicalUrl('portal', arcaPaths.authorization(credentials.representedCuit, service.name)),
        accept: 'application/json'
    }, (response) => {

        if (response.status !== 200) {
            throw internals.refusal(response, service.name);
        }

        const body = response.json() as { token?: unknown; sign?: unknown } | null;
        if (typeof body?.token !== 'string' || typeof body.sign !== 'string' || !body.token || !body.sign) {
            throw failure('unexpected_page', `${service.name}: autorización sin token/sign`);
        }

        return { token: body.token, sign: body.sign };
    });

    return http.request({ method: 'POST', url: logicalUrl(service.host, service.entry), form: authorization }, (response) => {

        if (response.status !== 200) {
            throw internals.refusal(response, service.name);
        }

        const html = response.text();
        if (/no se encuentra adherid|servicio no adherido/i.test(pageText(html))) {
            throw failure('not_adhered', service.name);
        }

        return { url: response.url, html };
    });
};

// A service that lists the taxpayers the token allows (as <option value="CUIT">) must offer
// the represented CUIT; without such a list, only the login CUIT itself is served.
export const requireTaxpayerChoice = (landing: Landing, credentials: AuthorityCredentials, service: string): void => {

    const offered = [...landing.html.matchAll(/<option\b[^>]*value="(\d{11})"/gi)].map((match) => match[1]);
    const allowed = offered.length ? offered.includes(credentials.representedCuit) : credentials.representedCuit === credentials.loginCuit;
    if (!allowed) {
        throw failure('represented_unavailable', service);
    }
};
