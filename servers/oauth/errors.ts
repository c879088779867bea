import type { KoaContextWithOIDC } from 'oidc-provider';
import { texts } from './texts.js';

// The authorization server's error answers in Spanish, like every other answer of the service
// (docs/api.md, Errors): oidc-provider writes `error_description` in English for developers.
// The `error` code stays RFC 6749's, since clients act on it; the description is said in Spanish
// from what oidc-provider said (the common cases, with the parameter it names) or else from the
// code. Its own pages are already Spanish (renderError in provider.ts).

const internals = {
    // oidc-provider's descriptions a client meets, with the names they carry.
    known: [
        [/^missing required parameters? (.+)$/, (names: string) => (/,| and /.test(names)
            ? `Faltan los parámetros obligatorios ${names.replace(/ and /g, ' y ')}.`
            : `Falta el parámetro obligatorio ${names}.`)],
        [/^(.+?) parameters? must not be provided twice$/, (names: string) => `No se puede enviar más de una vez ${names.replace(/ and /g, ' y ')}.`],
        [/^(\S+) must be a string with a minimum length of (\d+) characters$/, (name: string, min: string) => `${name} debe ser un texto de al menos ${min} caracteres.`],
        [/^(\S+) must be a string with a maximum length of (\d+) characters$/, (name: string, max: string) => `${name} debe ser un texto de hasta ${max} caracteres.`],
        [/^(\S+) contains invalid characters$/, (name: string) => `${name} contiene caracteres no permitidos.`],
        [/^only (\S+) content-type bodies are supported on (.+)$/, (type: string, route: string) => `${route} solo acepta cuerpos ${type}.`],
        [/^PKCE verification failed$/, () => 'La verificación PKCE falló: el code_verifier no corresponde al code_challenge de la autorización.'],
        // No challenge, a method other than S256, or one without the other (a challenge too
        // short or malformed is named above, by the rules on its length and characters).
        [/requires PKCE|code_challenge/, () => texts.pkceRequired],
        [/^client mismatch$/, () => 'El código o el token de actualización pertenece a otra aplicación.'],
        [/^requested scope is not allowed$/, () => 'La aplicación pidió permisos (scope) que no tiene o que este servidor no ofrece.'],
        [/^(\w+) is mandatory property$/, (name: string) => `Falta el dato obligatorio ${name}.`],
        [/^(\w+) must (?:be|contain|only contain) .*/, (name: string) => `El dato ${name} no es válido.`],
        [/^redirect_uri did not match any of the client's registered redirect_uris$/, () => texts.oauthErrors.invalid_redirect_uri!]
    ] as [RegExp, (...names: string[]) => string][],

    // Set by this service in Spanish (provider.ts, texts.ts): kept as they are.
    own: (description: string): boolean => description === texts.invalidTarget || description === texts.denied || description.includes(texts.schemeRefused),

    url(text: string): URL | null {

        try {
            return new URL(text);
        }
        catch {
            return null;
        }
    },

    // A header value (WWW-Authenticate) carries no accents: RFC 6750 keeps it ASCII.
    ascii: (text: string): string => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '')
};

const spanishDescription = (error: string, description: string | undefined): string => {

    if (description !== undefined && internals.own(description)) {
        return description;
    }

    for (const [pattern, say] of internals.known) {
        const match = description === undefined ? null : pattern.exec(description);
        if (match) {
            return say(...match.slice(1));
        }
    }

    return texts.oauthErrors[error] ?? texts.invalidOAuthRequest;
};

// Koa middleware of the provider (provider.use): once a route has answered, its error body, the
// redirect that carries an error to the client and the WWW-Authenticate header say it in Spanish.
export const spanishErrors = async (ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> => {

    await next();

    const body = ctx.body as { error?: unknown; error_description?: unknown } | null | undefined;
    if (body && typeof body === 'object' && !Buffer.isBuffer(body) && typeof body.error === 'string') {
        ctx.body = { ...body, error_description: spanishDescription(body.error, typeof body.error_description === 'string' ? body.error_description : undefined) };
    }

    const location = ctx.response.get('Location');
    const url = location && /[?&#]error=/.test(location) ? internals.url(location) : null;
    if (url) {
        // The query, or the fragment when the response mode is one.
        const inFragment = !url.searchParams.has('error');
        const params = inFragment ? new URLSearchParams(url.hash.slice(1)) : url.searchParams;
        const error = params.get('error');
        if (error) {
            params.set('error_description', spanishDescription(error, params.get('error_description') ?? undefined));
            if (inFragment) {
                url.hash = params.toString();
            }

            ctx.set('Location', url.toString());
        }
    }

    const challenge = ctx.response.get('WWW-Authenticate');
    if (challenge) {
        const error = /error="([^"]*)"/.exec(challenge)?.[1];
        if (error) {
            ctx.set('WWW-Authenticate', challenge.replace(/error_description="([^"]*)"/, (_all, description: string) => `error_description="${internals.ascii(spanishDescription(error, description))}"`));
        }
    }
};
