import type { AuthorityCredentials, AuthorityFailure } from '../../../core/ports/authority-client.js';
import { arcaHosts, arcaPaths, logicalUrl } from '../hosts.js';
import { failure } from './failures.js';
import { findForm, pageText } from './html.js';
import type { HttpResponse, HttpSession } from './http.js';

// The two-step login at auth.afip.gob.ar (AUTHORITY.md: Login): the CUIT on login.xhtml, the
// password on loginClave.xhtml, both JSF forms whose hidden fields (javax.faces.ViewState
// among them) are posted back; success lands on the portal. Every known failure page is told
// apart; none of them is retried (a rejected password retried can block the key), and the
// password is posted again only after a 5xx answer, never after a timeout or an unknown page.

// A form ready to be posted back: where to, with which fields, and the page it came from.
interface HttpForm {
    action: URL;
    fields: Record<string, string>;
    page: URL;
}

const internals = {
    // Ordered: the most specific first. Matched on the address and the visible text.
    pages: [
        { kind: 'captcha', path: /loginCaptcha/i, text: /captcha|caracteres de la imagen|c[oó]digo de la imagen/i },
        { kind: 'second_factor', path: /SegundoFactor|loginToken/i, text: /segundo factor|token de seguridad|c[oó]digo de verificaci[oó]n/i },
        { kind: 'expired_key', path: /cambioClave/i, text: /clave (fiscal )?(ha )?(expirad|vencid)|debe cambiar su clave/i },
        { kind: 'blocked_key', path: /bloquead/i, text: /clave (fiscal )?(se encuentra |est[aá] )?bloquead/i },
        { kind: 'rejected_key', path: /$^/, text: /(clave|contrase[nñ]a|usuario|cuit\/cuil)[^.]{0,40}incorrect|datos ingresados (son )?incorrectos/i },
        { kind: 'unavailable', path: /mantenimiento/i, text: /en mantenimiento|sistema no disponible|servicio no (se encuentra )?disponible/i }
    ] as const,

    // A failure page reached at the login host, or null when the page is not one of them.
    recognise(response: HttpResponse): AuthorityFailure | null {

        if (response.url.host !== arcaHosts.auth) {
            return null;
        }

        const html = response.text();
        const byPath = internals.pages.find((page) => page.path.test(response.url.pathname));
        if (byPath) {
            return failure(byPath.kind, `login: ${response.url.pathname}`);
        }

        // The page's own message first (help text elsewhere may mention blocked keys, etc.).
        for (const text of [internals.messages(html), pageText(html)]) {
            const page = internals.pages.find((candidate) => candidate.text.test(text));
            if (page) {
                return failure(page.kind, `login: ${response.url.pathname}`);
            }
        }

        return null;
    },

    // Text of the elements that carry the page's message (alerts, errors, JSF messages).
    messages(html: string): string {

        const pattern = /<(div|span|p|li|h\d)\b[^>]*\b(?:class|id)="[^"]*(?:alert|error|msg|mensaje)[^"]*"[^>]*>([\s\S]*?)<\/\1>/gi;
        return [...html.matchAll(pattern)].map((match) => pageText(match[2]!)).join(' ');
    },

    form(response: HttpResponse, field: string): HttpForm {

        if (response.status !== 200) {
            throw failure('unexpected_page', `login: HTTP ${response.status} en ${response.url.pathname}`);
        }

        const form = findForm(response.text(), 'F1');
        if (!form || !(field in form.fields)) {
            throw failure('unexpected_page', `login: falta el campo ${field} en ${response.url.pathname}`);
        }

        return { action: new URL(form.action ?? response.url.pathname, response.url), fields: form.fields, page: response.url };
    }
};

export const login = async (http: HttpSession, credentials: AuthorityCredentials): Promise<void> => {

    const start = logicalUrl('auth', arcaPaths.login);
    const userForm = await http.request({ url: start }, (response) => {

        const recognised = internals.recognise(response);
        if (recognised?.kind === 'unavailable') {
            throw recognised;
        }

        return internals.form(response, 'F1:username');
    });

    const passwordForm = await http.request({
        method: 'POST',
        url: userForm.action,
        referer: userForm.page,
        form: { ...userForm.fields, 'F1:username': credentials.loginCuit, 'F1:btnSiguiente': 'Siguiente' }
    }, (response) => {

        const recognised = internals.recognise(response);
        if (recognised && !('F1:password' in (findForm(response.text(), 'F1')?.fields ?? {}))) {
            throw recognised;
        }

        return internals.form(response, 'F1:password');
    });

    await http.request({
        method: 'POST',
        url: passwordForm.action,
        referer: passwordForm.page,
        retry: 'server_error',
        form: { ...passwordForm.fields, 'F1:password': credentials.password, 'F1:btnIngresar': 'Ingresar' }
    }, (response) => {

        const recognised = internals.recognise(response);
        if (recognised) {
            throw recognised;
        }

        if (response.url.host !== arcaHosts.portal || response.status !== 200) {
            throw failure('unexpected_page', `login: se esperaba el portal y llegó ${response.url.host}${response.url.pathname} (HTTP ${response.status})`);
        }
    });
};
