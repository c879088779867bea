// The authority's surface as both the scraper and the simulated authority see it: hosts,
// portal service names and entry points (docs/authority.md). What docs/authority.md marks unknown is
// marked "unknown" here: the scraper tolerates variants and captures what it does not know.

export const arcaHosts = {
    auth: 'auth.afip.gob.ar',
    portal: 'portalcf.cloud.afip.gob.ar',
    mcmp: 'fes.afip.gob.ar',
    ctacte: 'ctacte.cloud.afip.gob.ar',
    ccam: 'servicios2.afip.gob.ar',          // classic ASP, legacy TLS
    dfe: 've.cloud.afip.gob.ar',
    monotributo: 'monotributo.afip.gob.ar'
} as const;

export type ArcaHostKey = keyof typeof arcaHosts;

export const arcaPaths = {
    login: '/contribuyente_/login.xhtml',
    loginClave: '/contribuyente_/loginClave.xhtml',
    loginCaptcha: '/contribuyente_/loginCaptchaAfip.xhtml',
    changeKeyForced: '/contribuyente_/cambioClaveForzado.xhtml',
    portalLogin: '/portal/login',
    portalApp: '/portal/app/',
    portalInfo: '/portal/api/info',
    // The path carries the LOGIN CUIT, not the represented one.
    authorization: (loginCuit: string, service: string) => `/portal/api/servicios/${loginCuit}/servicio/${service}/autorizacion`,
    taxes: (cuit: string) => `/portal/api/cuit/${cuit}/tipoCuitImpuestos`,
    // ARCA's recategorization flag and window for a monotributista, on the portal session.
    recategorization: (cuit: string) => `/portal/api/monotributista/${cuit}/deberecategorizar`,
    // The dashboard's billing meter: an ASP.NET page method of Inicio.aspx (POST, JSON).
    meter: '/app/Inicio.aspx/CalcularFacturacion'
};

// Each service: its portal name and the entry URL the token/sign form is POSTed to.
export const arcaServices = {
    mcmp: { name: 'mcmp', host: 'mcmp', entry: '/mcmp/jsp/index.do' },
    // "Sistema de Cuentas Tributarias": three public SCT clients open the system
    // cuenta_corriente_contrib, landing on /contribuyente/externo (docs/authority.md).
    sct: { name: 'cuenta_corriente_contrib', host: 'ctacte', entry: '/contribuyente/externo' },
    ccma: { name: 'ccam', host: 'ccam', entry: '/tramites_con_clave_fiscal/ccam/procesa.asp' },
    dfe: { name: 'e-ventanilla', host: 'dfe', entry: '/login' },
    monotributo: { name: 'admin_mono', host: 'monotributo', entry: '/app/default.aspx' }
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
