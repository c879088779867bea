import type { AuthorityKey } from '../../../core/ports/authority-client.js';
import { arcaHosts, arcaPaths, logicalUrl } from '../hosts.js';
import { failure, passwordTouched } from './failures.js';
import { findForm, pageText } from './html.js';
import type { HttpResponse, HttpSession } from './http.js';
import { portalJson } from './services.js';

// The login (docs/authority.md: Login): GET login.xhtml (form F1 with its ;jsessionid= action and
// ViewState), POST the CUIT, POST the password once; the answer is an auto-submit form with a
// hidden `jwt` that expires in about 10 s, POSTed at once to portalcf…/portal/login, which
// sets AFIPSID; /portal/api/info confirms the session. Every known failure page has its kind.
// Nothing after the password POST is ever retried here, and every failure from then on says
// it touched the password, so the sync does not come back soon.

const internals = {
    portalLogin: `https://${arcaHosts.portal}${arcaPaths.portalLogin}`,
    captcha: /<div\b[^>]*\bid\s*=\s*["']captcha["'][^>]*>[\s\S]*?<img\b[^>]*src\s*=\s*["']data:image\//i,

    form(response: HttpResponse, field: string) {

        const form = findForm(response.text(), 'F1');
        if (response.status !== 200 || !form || !(field in form.fields)) {
            return null;
        }

        return { action: new URL(form.action ?? response.url.pathname, response.url), fields: form.fields };
    },

    // The answer to the password POST, told apart in the order public clients found safe.
    afterPassword(response: HttpResponse, http: HttpSession): { jwt: string; action: URL } {

        const html = response.text();
        const jwt = /<input\b[^>]*\bname\s*=\s*["']jwt["'][^>]*\bvalue\s*=\s*["']([^"']+)["']/i.exec(html)?.[1]
            ?? /<input\b[^>]*\bvalue\s*=\s*["']([^"']+)["'][^>]*\bname\s*=\s*["']jwt["']/i.exec(html)?.[1];
        if (jwt) {
            http.secret(jwt);
        }

        // The auto-submit form to portal/login; a jwt field in any other form is not ours to send.
        const action = /<form\b[^>]*\baction\s*=\s*["']([^"']*\/portal\/login)["']/i.exec(html)?.[1];
        if (jwt && action && new URL(action, internals.portalLogin).href === internals.portalLogin) {
            return { jwt, action: new URL(internals.portalLogin) };
        }

        const text = pageText(html).toLowerCase();
        const touched = { touchedPassword: true };
        if (/cambioclaveforzado/i.test(response.url.pathname) || /cambioclaveforzado/i.test(html) || text.includes('cambiar tu contraseña')) {
            throw failure('expired_key', 'cambio de clave forzado', touched);
        }

        if (internals.captcha.test(html)) {
            throw failure('captcha', 'después de la clave', touched);
        }

        if (/tu token|hardware-token|afip-o|gener[aá] tu token/.test(text)) {
            throw failure('second_factor', 'token de seguridad', touched);
        }

        if (/clave (fiscal )?(se encuentra |est[aá] )?bloquead/.test(text)) {
            throw failure('blocked_key', undefined, touched);
        }

        if (/clave o usuario incorrecto|usuario o clave incorrecto|clave incorrecta/.test(text) || 'F1:password' in (findForm(html, 'F1')?.fields ?? {})) {
            throw failure('rejected_key', undefined, touched);
        }

        throw http.unexpected(response, 'login', 'loginClave.xhtml', `sin jwt (HTTP ${response.status})`, touched);
    }
};

export const login = async (http: HttpSession, key: AuthorityKey): Promise<void> => {

    http.secret(key.password);
    const start = logicalUrl('auth', arcaPaths.login);
    const userForm = await http.request({ url: start, referer: 'https://www.arca.gob.ar/' }, (response) => {

        return internals.form(response, 'F1:username') ?? (() => {

            throw http.unexpected(response, 'login', 'login.xhtml', `sin el formulario F1 (HTTP ${response.status})`);
        })();
    });

    // The CUIT POST moves no password: a 5xx here may be retried.
    const passwordForm = await http.request({
        method: 'POST',
        url: userForm.action,
        referer: start,
        origin: `https://${arcaHosts.auth}`,
        retry: 'safe',
        form: { ...userForm.fields, F1: 'F1', 'F1:username': key.loginCuit, 'F1:btnSiguiente': 'Siguiente' }
    }, (response) => {

        const form = internals.form(response, 'F1:password');
        if (!form) {
            throw http.unexpected(response, 'login', 'usuario', `sin el formulario de clave (HTTP ${response.status})`);
        }

        // A CAPTCHA already on the password page: stop before posting the password.
        if (internals.captcha.test(response.text())) {
            throw failure('captcha', 'antes de la clave');
        }

        return form;
    });

    const { jwt, action } = await http.request({
        method: 'POST',
        url: passwordForm.action.pathname.endsWith('.xhtml') || passwordForm.action.pathname.includes(';') ? passwordForm.action : logicalUrl(
            'auth',
            arcaPaths.loginClave
        ),
        referer: start,
        origin: `https://${arcaHosts.auth}`,
        retry: 'never',
        form: { ...passwordForm.fields, F1: 'F1', 'F1:username': key.loginCuit, 'F1:password': key.password, 'F1:captcha': '', 'F1:btnIngresar': 'Ingresar' }
    }, (response) => internals.afterPassword(response, http)).catch((err: unknown) => {

        // A timeout or a 5xx after the password left: the password may have been evaluated.
        throw passwordTouched(err);
    });

    // The jwt lives about 10 s: posted at once, never retried, and the redirect not followed
    // (AFIPSID comes with the 302).
    await http.request({
        method: 'POST',
        url: action,
        referer: `https://${arcaHosts.auth}/`,
        origin: `https://${arcaHosts.auth}`,
        retry: 'never',
        followRedirects: false,
        form: { jwt }
    }, (response) => {

        if (!http.cookie(logicalUrl('portal', '/portal/'), 'AFIPSID')) {
            throw http.unexpected(response, 'login', 'portal/login', `el portal no dio AFIPSID (HTTP ${response.status})`, { touchedPassword: true });
        }
    }).catch((err: unknown) => {

        throw passwordTouched(err);
    });

    await portalJson(http, arcaPaths.portalInfo, 'portal/api/info', undefined, { touchedPassword: true });
};
