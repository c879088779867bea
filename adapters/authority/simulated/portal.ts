import type { RegistryClassification } from '../../../core/ports/repositories.js';
import { arcaHosts, arcaPaths, arcaServices } from '../hosts.js';
import { escapeHtml, htmlPage } from './pages.js';
import type { Route } from './reply.js';
import { cookiesOf, formOf, json, redirect, html } from './reply.js';
import { simulatedRecategorization } from './meter.js';
import type { SimulatedState } from './state.js';

// portalcf.cloud.afip.gob.ar: the jwt is exchanged (once, before it expires) for the AFIPSID
// cookie; /portal/api/info checks the session; /portal/api/servicios/{LOGIN CUIT}/servicio/
// {name}/autorizacion hands out a service's token/sign (none when not adhered; a name it does
// not know is refused); and the
// registry's /portal/api/cuit/{cuit}/tipoCuitImpuestos lists the taxes of any CUIT the key
// reaches, and /portal/api/monotributista/{cuit}/deberecategorizar its recategorization
// (meter.ts).

const internals = {
    services: new Set<string>([...Object.values(arcaServices).map((service) => service.name), 'padron-puc-consulta-internet'])
};

const portalPage = (cuit: string, name: string): string => htmlPage('Portal ARCA', `<div id="root" data-cuit="${cuit}"><header>Hola, ${escapeHtml(name)}</header><main>Mis servicios</main></div>`);

const tipoCuitImpuestos = (registry: RegistryClassification, entity: boolean) => {

    const tax = (id: number, descripcion: string, estado = 'ACTIVO') => ({ id, periodo: 202401, descripcion, estado });
    const impuestos = entity
        ? [tax(30, 'IVA'), tax(10, 'GANANCIAS SOCIEDADES')]
        : registry.monotributista
            ? [tax(20, 'MONOTRIBUTO'), tax(21, 'MONOTRIBUTO AUTONOMO'), tax(30, 'IVA', 'BAJA DEFINITIVA')]
            : registry.autonomo
                ? [tax(30, 'IVA'), tax(11, 'GANANCIAS PERSONAS HUMANAS'), tax(308, 'APORTES SEG.SOCIAL AUTONOMOS')]
                : [tax(32, 'IVA EXENTO'), tax(20, 'MONOTRIBUTO', 'BAJA DEFINITIVA')];
    return { success: true, data: { impuestos } };
};

export const portalRoutes = (state: SimulatedState): Route => {

    const notAdhered = state.options.notAdhered ?? (() => false);
    const portalSessions = new Map<string, string>();            // AFIPSID -> CUIT
    // Per key, the session in use and those it replaced: a replaced one used again overlaps.
    const current = new Map<string, string>();
    const replaced = new Map<string, Set<string>>();
    const used = (cuit: string, session: string) => {

        const now = current.get(cuit);
        if (now === session) {
            return;
        }

        if (replaced.get(cuit)?.has(session)) {
            state.stats.overlappingSessions++;
            state.stats.overlapsByCuit[cuit] = (state.stats.overlapsByCuit[cuit] ?? 0) + 1;
        }

        if (now !== undefined) {
            state.remember(replaced, cuit, new Set([...replaced.get(cuit) ?? [], now].slice(-20)));
        }

        state.remember(current, cuit, session);
    };

    return async (req, res, path) => {

        if (path === arcaPaths.portalLogin && req.method === 'POST') {
            const jwt = (await formOf(req)).get('jwt') ?? '';
            const grant = state.jwts.get(jwt);
            state.jwts.delete(jwt);
            if (!grant || grant.exp < Date.now()) {
                return redirect(res, `https://${arcaHosts.auth}${arcaPaths.login}`);
            }

            grant.login.lastAt = state.arrivedAt.get(req) ?? Date.now();
            const session = state.token();
            state.stats.portalSessions++;
            state.remember(portalSessions, session, grant.cuit);
            return redirect(res, arcaPaths.portalApp, { 'set-cookie': `AFIPSID=${session}; Path=/; Secure; HttpOnly` });
        }

        const afipsid = cookiesOf(req).AFIPSID ?? '';
        const cuit = portalSessions.get(afipsid);
        if (!cuit) {
            return path.startsWith('/portal/api/') ? json(res, { error: 'no autenticado' }, 401) : redirect(res, `https://${arcaHosts.auth}${arcaPaths.login}`);
        }

        used(cuit, afipsid);

        if (path === arcaPaths.portalApp) {
            return html(res, portalPage(cuit, state.name(cuit)));
        }

        if (path === arcaPaths.portalInfo) {
            return json(res, { cuit: Number(cuit), nombre: state.name(cuit), tipoPersona: 'FISICA' });
        }

        const service = /^\/portal\/api\/servicios\/(\d{11})\/servicio\/([\w-]+)(\/autorizacion)?$/.exec(path);
        if (service) {
            // A name the portal does not know is refused (the old guess 'ctacte' was).
            if (!internals.services.has(service[2]!)) {
                return json(res, { error: 'Servicio inexistente' }, 404);
            }

            if (service[1] !== cuit) {
                return json(res, { error: 'CUIT distinta de la del ingreso' }, 403);
            }

            const adhered = !notAdhered(
                cuit,
                service[2]!
            ) && (service[2] !== arcaServices.monotributo.name || state.taxpayer(cuit).registry.monotributista === true);
            if (!service[3]) {
                return json(res, { servicio: service[2], adherido: adhered });
            }

            return json(res, adhered ? state.serviceToken(cuit, service[2]!) : { servicio: service[2] });
        }

        const taxes = /^\/portal\/api\/cuit\/(\d{11})\/tipoCuitImpuestos$/.exec(path);
        if (taxes && state.reaches(cuit, taxes[1]!)) {
            const data = state.taxpayer(taxes[1]!);
            state.read({ host: arcaHosts.portal, cuit: taxes[1]!, what: 'tipoCuitImpuestos' });
            return json(res, tipoCuitImpuestos(data.registry, data.entity));
        }

        const recategorization = /^\/portal\/api\/monotributista\/(\d{11})\/deberecategorizar$/.exec(path);
        if (recategorization && state.reaches(cuit, recategorization[1]!)) {
            state.read({ host: arcaHosts.portal, cuit: recategorization[1]!, what: 'deberecategorizar' });
            return json(res, simulatedRecategorization(state.taxpayer(recategorization[1]!), state.today));
        }

        return json(res, { error: 'no encontrado' }, 404);
    };
};
