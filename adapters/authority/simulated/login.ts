import { createHash } from 'node:crypto';
import { arcaHosts, arcaPaths } from '../hosts.js';
import { isEntityCuit } from './data.js';
import type { Faults } from './faults.js';
import { escapeHtml, htmlPage, messagePage } from './pages.js';
import type { Route } from './reply.js';
import { cookiesOf, formOf, html, redirect } from './reply.js';
import type { LoginOutcome, LoginSeen, SimulatedState } from './state.js';

// auth.afip.gob.ar: the JSF login. login.xhtml (form F1, its action carrying ;jsessionid=)
// takes the CUIT, loginClave.xhtml the password; success is an auto-submit form with a hidden
// jwt for portalcf…/portal/login, valid `jwtTtlMs` (10 s) and once. Every failure page public
// clients know: wrong key, blocked key, forced change, CAPTCHA (after `captchaAfter.logins`
// password POSTs of one CUIT within `captchaAfter.windowMs`, or drawn), second factor.
//
// Default credentials rule (replaceable with `login`): a physical person's CUIT with any
// non-empty password is accepted, except passwords beginning with 'mala' (wrong key),
// 'bloqueada', 'vencida' (forced change), 'captcha', 'segundo' (second factor), 'desconocida'
// (a page nobody has seen after the password). A legal entity cannot log in.

interface AuthState { viewState: string; cuit: string | null; login: LoginSeen }

const internals = {
    rules: [
        ['mala', 'rejected'],
        ['bloqueada', 'blocked'],
        ['vencida', 'expired'],
        ['captcha', 'captcha'],
        ['segundo', 'second_factor'],
        ['desconocida', 'unknown']
    ] as [string, LoginOutcome][],

    defaultLogin(cuit: string, password: string): LoginOutcome {

        if (!password || isEntityCuit(cuit)) {
            return 'rejected';
        }

        return internals.rules.find(([prefix]) => password.toLowerCase().startsWith(prefix))?.[1] ?? 'ok';
    },

    viewState: (token: string) => `${token}:-${Math.floor(Math.random() * 1e9)}`
};

const loginUserPage = (jsessionid: string, viewState: string, error?: string): string => htmlPage('ARCA - Acceso con Clave Fiscal', `
<div class="container"><h1>Ingresá con Clave Fiscal</h1>
${error ? `<div class="alert alert-danger"><span id="F1:msg">${escapeHtml(error)}</span></div>` : ''}
<form id="F1" name="F1" method="post" action="/contribuyente_/login.xhtml;jsessionid=${jsessionid}" enctype="application/x-www-form-urlencoded">
<input type="hidden" name="F1" value="F1" />
<label for="F1:username">CUIT/CUIL</label>
<input id="F1:username" type="text" name="F1:username" value="" maxlength="11" />
<input id="F1:btnSiguiente" type="submit" name="F1:btnSiguiente" value="Siguiente" />
<input type="hidden" name="javax.faces.ViewState" id="j_id1:javax.faces.ViewState:0" value="${viewState}" autocomplete="off" />
</form></div>`);

// The password page; with a CAPTCHA, its image comes embedded in div#captcha and the form
// posts to loginCaptchaAfip.xhtml.
const loginPasswordPage = (viewState: string, cuit: string, options: { error?: string; captcha?: boolean } = {}): string => htmlPage('ARCA - Acceso con Clave Fiscal', `
<div class="container"><h1>Ingresá con Clave Fiscal</h1>
<p>CUIT/CUIL: <strong>${cuit}</strong></p>
${options.error ? `<div class="alert alert-danger"><span id="F1:msg">${escapeHtml(options.error)}</span></div>` : ''}
<form id="F1" name="F1" method="post" action="/contribuyente_/${options.captcha ? 'loginCaptchaAfip' : 'loginClave'}.xhtml" enctype="application/x-www-form-urlencoded">
<input type="hidden" name="F1" value="F1" />
<input type="hidden" name="F1:username" value="${cuit}" />
<label for="F1:password">Clave</label>
<input id="F1:password" type="password" name="F1:password" value="" />
${options.captcha ? '<div id="captcha"><img src="data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8U" alt="captcha" /></div>\n<input type="text" id="F1:captchaSolutionInput" name="F1:captchaSolutionInput" value="" />' : '<input type="hidden" name="F1:captcha" value="" />'}
<input id="F1:btnIngresar" type="submit" name="F1:btnIngresar" value="Ingresar" />
<a href="/contribuyente_/recuperarClave.xhtml">¿Olvidaste tu clave?</a>
<input type="hidden" name="javax.faces.ViewState" id="j_id1:javax.faces.ViewState:0" value="${viewState}" autocomplete="off" />
</form></div>`);

// Success: an auto-submit form carrying the jwt to the portal.
const jwtPage = (portalLogin: string, jwt: string): string => htmlPage('Ingresando...', `
<form id="F1" name="F1" method="post" action="${portalLogin}">
<input type="hidden" name="jwt" value="${jwt}" />
<noscript><input type="submit" value="Continuar" /></noscript>
</form>
<script>document.getElementById('F1').submit();</script>`);

const changeKeyForcedPage = (): string => htmlPage(
    'ARCA - Cambio de clave',
    '<div class="container"><h1>Cambio de Clave Fiscal</h1><p>Por razones de seguridad, tenés que cambiar tu contraseña para continuar.</p><form id="F1" method="post" action="/contribuyente_/cambioClaveForzado.xhtml"><input type="password" name="F1:claveActual" /></form></div>'
);

const secondFactorPage = (): string => htmlPage(
    'ARCA - Token',
    '<div class="container"><h1>TU TOKEN</h1><p>Generá tu token con uno de estos mecanismos:</p><ul><li>HARDWARE-TOKEN</li><li>AFIP-O</li></ul><form id="F1" method="post" action="/contribuyente_/loginToken.xhtml"><input type="text" name="F1:token" /></form></div>'
);

// A page no public client describes, showing who logged in (a capture must mask the name).
const unknownPage = (name: string): string => htmlPage('ARCA - Acceso con Clave Fiscal', `<div class="container"><h1>Aviso importante</h1><p class="usuario">Hola, ${escapeHtml(name)}</p><p>Aceptá los nuevos términos y condiciones para continuar.</p><form id="F2" method="post" action="/contribuyente_/terminos.xhtml"><input type="submit" value="Aceptar" /></form></div>`);

const blockedKeyPage = (): string => messagePage(
    'Clave bloqueada',
    'Su clave se encuentra bloqueada. Comuníquese con ARCA o desbloquéela desde la web.'
);

export const loginRoutes = (state: SimulatedState, faults: Faults): Route => {

    const loginRule = state.options.login ?? internals.defaultLogin;
    const jwtTtlMs = state.options.jwtTtlMs ?? 10_000;
    const captchaAfter = state.options.captchaAfter ?? null;
    const authStates = new Map<string, AuthState>();
    const passwordPosts = new Map<string, number[]>();
    const recent = (cuit: string) => (passwordPosts.get(cuit) ?? []).filter((at) => captchaAfter && at > Date.now() - captchaAfter.windowMs).length;

    return async (req, res, path) => {

        const [plainPath, matrix = ''] = path.split(';');
        const now = state.arrivedAt.get(req) ?? Date.now();
        if (plainPath === arcaPaths.login && req.method === 'GET') {
            const id = state.token();
            // A login starts with its first request to auth, the form's GET.
            const login: LoginSeen = { cuit: null, at: now, lastAt: now };
            state.loginStarts.push(login);
            const auth: AuthState = { viewState: internals.viewState(state.token()), cuit: null, login };
            state.remember(authStates, id, auth);
            return html(res, loginUserPage(id, auth.viewState), 200, { 'set-cookie': `JSESSIONID=${id}; Path=/contribuyente_; Secure; HttpOnly` });
        }

        if (plainPath === arcaPaths.changeKeyForced) {
            return html(res, changeKeyForcedPage());
        }

        const id = cookiesOf(req).JSESSIONID ?? /jsessionid=([^;/?]+)/.exec(matrix)?.[1] ?? '';
        const auth = authStates.get(id);
        const form = req.method === 'POST' ? await formOf(req) : new URLSearchParams();
        if (!auth || req.method !== 'POST' || form.get('javax.faces.ViewState') !== auth.viewState) {
            return html(res, messagePage('Sesión expirada', 'La sesión ha expirado. Vuelva a ingresar.'));
        }

        auth.login.lastAt = now;

        if (plainPath === arcaPaths.login) {
            const cuit = (form.get('F1:username') ?? '').replace(/\D/g, '');
            if (cuit.length !== 11 || isEntityCuit(cuit)) {
                return html(res, loginUserPage(id, auth.viewState, 'Número de CUIL/CUIT incorrecto'));
            }

            auth.cuit = cuit;
            auth.login.cuit = cuit;
            auth.viewState = internals.viewState(state.token());
            const captcha = faults.chance(faults.failures.captcha) || Boolean(captchaAfter && recent(cuit) >= captchaAfter.logins);
            return html(res, loginPasswordPage(auth.viewState, cuit, { captcha }));
        }

        if ((plainPath === arcaPaths.loginClave || plainPath === arcaPaths.loginCaptcha) && auth.cuit) {
            const cuit = auth.cuit;
            state.stats.logins++;
            state.stats.loginsByCuit[cuit] = (state.stats.loginsByCuit[cuit] ?? 0) + 1;
            const previous = recent(cuit);
            passwordPosts.set(cuit, [...(passwordPosts.get(cuit) ?? []).slice(-50), Date.now()]);
            const password = form.get('F1:password') ?? '';
            // Which key it was, as a digest (never the password): what tenant checks count.
            state.stats.passwordsByCuit[cuit] = [...state.stats.passwordsByCuit[cuit] ?? [], createHash('sha256').update(password).digest('hex').slice(0, 16)];
            let outcome = loginRule(cuit, password);
            if (outcome === 'ok' && faults.chance(faults.failures.rejectedKey)) {
                outcome = 'rejected';
            }

            if (outcome === 'ok' && (plainPath === arcaPaths.loginCaptcha || (captchaAfter && previous >= captchaAfter.logins))) {
                outcome = 'captcha';
            }

            auth.viewState = internals.viewState(state.token());
            switch (outcome) {
                case 'rejected':
                    return html(res, loginPasswordPage(auth.viewState, cuit, { error: 'Clave o usuario incorrecto' }));
                case 'blocked':
                    return html(res, blockedKeyPage());
                case 'expired':
                    return redirect(res, arcaPaths.changeKeyForced);
                case 'captcha':
                    return html(res, loginPasswordPage(auth.viewState, cuit, { captcha: true, error: 'El captcha ingresado es incorrecto' }));
                case 'second_factor':
                    return html(res, secondFactorPage());
                case 'unknown':
                    return html(res, unknownPage(state.name(cuit)));
            }

            const jwt = state.issue(`${Buffer.from(JSON.stringify({ alg: 'RS256' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: cuit, n: state.token() })).toString('base64url')}.${state.token()}`);
            state.remember(state.jwts, jwt, { cuit, exp: Date.now() + jwtTtlMs, login: auth.login });
            authStates.delete(id);
            return html(res, jwtPage(`https://${arcaHosts.portal}${arcaPaths.portalLogin}`, jwt));
        }

        return html(res, messagePage('No encontrado', 'La página solicitada no existe.'), 404);
    };
};
