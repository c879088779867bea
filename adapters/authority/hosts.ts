// The authority's surface as both the scraper and the simulated authority see it: hosts,
// portal service names and entry points (AUTHORITY.md). Entries marked "assumed" are not
// publicly documented; they are this project's plausible choice and the simulated
// authority serves exactly them.

export const arcaHosts = {
    auth: 'auth.afip.gob.ar',
    portal: 'portalcf.cloud.afip.gob.ar',
    mcmp: 'fes.afip.gob.ar',
    sct: 'sct.afip.gob.ar',                 // assumed
    ccma: 'ccma.afip.gob.ar',               // assumed
    dfe: 've.cloud.afip.gob.ar',
    registry: 'seti.afip.gob.ar'            // assumed: constancia de inscripción
} as const;

export type ArcaHostKey = keyof typeof arcaHosts;

export const arcaPaths = {
    login: '/contribuyente_/login.xhtml',
    loginClave: '/contribuyente_/loginClave.xhtml',
    captcha: '/contribuyente_/loginCaptchaAfip.xhtml',
    secondFactor: '/contribuyente_/loginSegundoFactor.xhtml',     // assumed name
    changeKey: '/contribuyente_/cambioClave.xhtml',               // assumed name
    portalApp: '/portal/app/',
    authorization: (cuit: string, service: string) => `/portal/api/servicios/${cuit}/servicio/${service}/autorizacion`
};

// Each service: its portal name and the entry URL the token/sign form is POSTed to.
export const arcaServices = {
    mcmp: { name: 'mcmp', host: 'mcmp', entry: '/mcmp/jsp/login.do' },
    sct: { name: 'sct', host: 'sct', entry: '/sct/login.do' },                          // assumed
    ccma: { name: 'ccma', host: 'ccma', entry: '/ccma/login.do' },                      // assumed
    dfe: { name: 'e-ventanilla', host: 'dfe', entry: '/login' },                         // assumed path
    registry: { name: 'constancia-inscripcion', host: 'registry', entry: '/padron-puc-constancia-internet/login.do' } // assumed
} as const satisfies Record<string, { name: string; host: ArcaHostKey; entry: string }>;

export type ArcaServiceKey = keyof typeof arcaServices;

const internals = {
    knownHosts: new Set<string>(Object.values(arcaHosts))
};

export const isArcaHost = (host: string): boolean => {

    return internals.knownHosts.has(host) || host.endsWith('.afip.gob.ar') || host.endsWith('.arca.gob.ar');
};

// One code path for the real and the simulated authority: the scraper always speaks in the
// real (logical) URLs; a base URL, when given, routes every host to one server with the host
// name as the first path segment: https://fes.afip.gob.ar/mcmp/x -> {base}/fes.afip.gob.ar/mcmp/x
export interface Router {
    physical(logical: URL): string;
}

export const createRouter = (baseUrl: string | null): Router => {

    if (!baseUrl) {
        return { physical: (logical) => logical.href };
    }

    const base = baseUrl.replace(/\/+$/, '');
    return {
        physical: (logical) => `${base}/${logical.host}${logical.pathname}${logical.search}`
    };
};

export const logicalUrl = (host: ArcaHostKey, path: string): URL => new URL(`https://${arcaHosts[host]}${path}`);
