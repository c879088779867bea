import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import nock from 'nock';
import type { ArcaClient, ArcaClientOptions } from '../adapters/authority/arca/index.js';
import { createArcaClient } from '../adapters/authority/arca/index.js';
import { parseCcmaBalances, parseCcmaMovements } from '../adapters/authority/arca/ccma.js';
import { parseCommunications } from '../adapters/authority/arca/dfe.js';
import { detectInvoiceCsvGeneration, parseInvoicesCsv } from '../adapters/authority/arca/invoices-csv.js';
import { splitRange } from '../adapters/authority/arca/mis-comprobantes.js';
import { parseRegistry } from '../adapters/authority/arca/registry.js';
import { parseSctDebts, parseSctDueDates, parseSctReturns } from '../adapters/authority/arca/sct.js';
import { readZip, writeZip } from '../adapters/authority/zip.js';
import type { Cuit } from '../core/domain/cuit.js';
import type { AuthorityCredentials, AuthorityFailureKind, AuthoritySession } from '../core/ports/authority-client.js';
import { AuthorityFailure } from '../core/ports/authority-client.js';

// The arca adapter against the real hosts' addresses, answered by nock with recorded-like
// fixtures of every page and export (test/fixtures/arca). nock is switched on only for this
// suite so the rest of the run keeps its real sockets.
nock.restore();

const internals = {
    auth: 'https://auth.afip.gob.ar',
    portal: 'https://portalcf.cloud.afip.gob.ar',
    mcmp: 'https://fes.afip.gob.ar',
    sct: 'https://sct.afip.gob.ar',
    ccma: 'https://ccma.afip.gob.ar',
    ve: 'https://ve.cloud.afip.gob.ar',
    seti: 'https://seti.afip.gob.ar',
    person: '20123456786' as Cuit,
    entity: '30712345671' as Cuit,
    viewState1: '-3481249720163413457:2184637120497132688',
    viewState2: '-3481249720163413457:-911275263354901231',

    fixture(path: string): string {

        return readFileSync(new URL(`./fixtures/arca/${path}`, import.meta.url), 'utf8');
    },

    binary(path: string): Buffer {

        return readFileSync(new URL(`./fixtures/arca/${path}`, import.meta.url));
    },

    client(options: ArcaClientOptions = {}): ArcaClient {

        return createArcaClient({ perHost: { intervalCap: 1_000, interval: 1_000 }, retries: 2, backoffMs: 1, maxBackoffMs: 4, timeoutMs: 1_000, pollIntervalMs: 1, maxPolls: 5, now: () => new Date('2026-11-20T12:00:00Z'), ...options });
    },

    credentials(representedCuit?: Cuit): AuthorityCredentials {

        const person = '20123456786' as Cuit;
        return { loginCuit: person, password: 'Secreta-123', representedCuit: representedCuit ?? person };
    },

    html: { 'content-type': 'text/html;charset=UTF-8' },
    jsonType: { 'content-type': 'application/json;charset=UTF-8' },

    // The two JSF steps up to the password POST, checking what the browser would send.
    loginSteps(): nock.Scope {

        return nock(internals.auth, { reqheaders: { 'user-agent': /Mozilla\/5\.0 .*Chrome/ } })
            .get('/contribuyente_/login.xhtml')
            .reply(200, internals.fixture('login/login.xhtml.html'), { ...internals.html, 'set-cookie': ['JSESSIONID=0000aBcD:1f2g3h; Path=/contribuyente_; Secure; HttpOnly', 'TS01a2b3c4=01ff; Path=/'] })
            .post('/contribuyente_/login.xhtml', (body: Record<string, string>): boolean => body['F1:username'] === internals.person && body['javax.faces.ViewState'] === internals.viewState1 && body.F1 === 'F1' && body['F1:btnSiguiente'] === 'Siguiente')
            .matchHeader('cookie', /JSESSIONID=0000aBcD:1f2g3h/)
            .reply(302, '', { location: 'https://auth.afip.gob.ar/contribuyente_/loginClave.xhtml' })
            .get('/contribuyente_/loginClave.xhtml')
            .matchHeader('cookie', /TS01a2b3c4=01ff/)
            .reply(200, internals.fixture('login/loginClave.xhtml.html'), internals.html);
    },

    passwordPost(scope: nock.Scope, counter?: { posts: number }): nock.Interceptor {

        return scope.post('/contribuyente_/loginClave.xhtml', (body: Record<string, string>): boolean => {

            if (counter) {
                counter.posts++;
            }

            return body['F1:password'] === 'Secreta-123' && body['javax.faces.ViewState'] === internals.viewState2 && body['F1:username'] === internals.person;
        });
    },

    // A complete successful login; the portal sets a cookie for the whole afip.gob.ar domain.
    login(): void {

        internals.passwordPost(internals.loginSteps()).reply(302, '', { location: 'https://portalcf.cloud.afip.gob.ar/portal/app/' });
        nock(internals.portal).get('/portal/app/').reply(200, internals.fixture('login/portal.html'), { ...internals.html, 'set-cookie': 'CFSESSION=portal-77; Domain=.afip.gob.ar; Path=/; Secure' });
    },

    // Portal authorization and the POST of token/sign to the service's entry.
    service(name: string, cuit: Cuit, host: string, entry: string, landingPath: string, landing: string): void {

        const { token, sign } = JSON.parse(internals.fixture('login/authorization.json')) as { token: string; sign: string };
        nock(internals.portal).get(`/portal/api/servicios/${cuit}/servicio/${name}/autorizacion`).matchHeader('cookie', /CFSESSION=portal-77/).reply(200, { token, sign }, internals.jsonType);
        nock(host).post(entry, { token, sign }).reply(302, '', { location: landingPath, 'set-cookie': 'SVC=s1; Path=/' })
            .get(landingPath).matchHeader('cookie', /SVC=s1/).reply(200, landing, internals.html);
    },

    async failureOf(promise: Promise<unknown>): Promise<AuthorityFailureKind> {

        try {
            await promise;
        }
        catch (err) {
            if (!(err instanceof AuthorityFailure)) {
                throw err;
            }

            return err.kind;
        }

        throw new Error('expected a failure');
    },

    async session(represented?: Cuit, options: ArcaClientOptions = {}): Promise<AuthoritySession> {

        internals.login();
        return internals.client(options).login(internals.credentials(represented ?? '20123456786' as Cuit));
    }
};

describe('arca adapter on recorded pages (nock)', () => {

    before(() => {

        if (!nock.isActive()) {
            nock.activate();
        }

        nock.disableNetConnect();
    });

    afterEach(() => {

        nock.cleanAll();
    });

    after(() => {

        nock.enableNetConnect();
        nock.restore();
    });

    describe('login', () => {

        it('posts both JSF forms back with their ViewState and cookies, as a browser', async () => {

            internals.login();
            const session = await internals.client().login(internals.credentials());
            await session.close();
            expect(nock.pendingMocks()).to.deep.equal([]);
        });

        for (const [label, answer, kind] of [
            ['the wrong-password page', (scope: nock.Interceptor) => scope.reply(200, internals.fixture('login/wrong-password.html'), internals.html), 'rejected_key'],
            ['the wrong-password page whose help text mentions blocked keys', (scope: nock.Interceptor) => scope.reply(200, internals.fixture('login/wrong-password-with-help.html'), internals.html), 'rejected_key'],
            ['the blocked-key page', (scope: nock.Interceptor) => scope.reply(200, internals.fixture('login/blocked-key.html'), internals.html), 'blocked_key'],
            ['the expired-key page', (scope: nock.Interceptor) => scope.reply(302, '', { location: '/contribuyente_/cambioClave.xhtml' }), 'expired_key'],
            ['the CAPTCHA page', (scope: nock.Interceptor) => scope.reply(302, '', { location: '/contribuyente_/loginCaptchaAfip.xhtml' }), 'captcha'],
            ['the second-factor page', (scope: nock.Interceptor) => scope.reply(200, internals.fixture('login/second-factor.html'), internals.html), 'second_factor']
        ] as const) {
            it(`recognises ${label} and never retries it`, async () => {

                const counter = { posts: 0 };
                const steps = internals.loginSteps();
                answer(internals.passwordPost(steps, counter));
                nock(internals.auth)
                    .get('/contribuyente_/cambioClave.xhtml').optionally().reply(200, internals.fixture('login/cambioClave.xhtml.html'), internals.html)
                    .get('/contribuyente_/loginCaptchaAfip.xhtml').optionally().reply(200, internals.fixture('login/loginCaptchaAfip.xhtml.html'), internals.html);
                expect(await internals.failureOf(internals.client({ retries: 3 }).login(internals.credentials()))).to.equal(kind);
                expect(counter.posts).to.equal(1);
            });
        }

        it('recognises the CAPTCHA right after the CUIT', async () => {

            nock(internals.auth)
                .get('/contribuyente_/login.xhtml').reply(200, internals.fixture('login/login.xhtml.html'), internals.html)
                .post('/contribuyente_/login.xhtml').reply(302, '', { location: '/contribuyente_/loginCaptchaAfip.xhtml' })
                .get('/contribuyente_/loginCaptchaAfip.xhtml').reply(200, internals.fixture('login/loginCaptchaAfip.xhtml.html'), internals.html);
            expect(await internals.failureOf(internals.client().login(internals.credentials()))).to.equal('captcha');
        });

        it('reports maintenance as unavailable after retrying it', async () => {

            nock(internals.auth).get('/contribuyente_/login.xhtml').times(3).reply(503, internals.fixture('login/maintenance.html'), internals.html);
            expect(await internals.failureOf(internals.client({ retries: 2 }).login(internals.credentials()))).to.equal('unavailable');
            expect(nock.pendingMocks()).to.deep.equal([]);

            nock(internals.auth).get('/contribuyente_/login.xhtml').times(2).reply(200, internals.fixture('login/maintenance.html'), internals.html);
            expect(await internals.failureOf(internals.client({ retries: 1 }).login(internals.credentials()))).to.equal('unavailable');
        });

        it('retries 5xx, resets and timeouts with backoff, then logs in', async () => {

            nock(internals.auth)
                .get('/contribuyente_/login.xhtml').reply(502, 'Bad Gateway')
                .get('/contribuyente_/login.xhtml').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' })
                .get('/contribuyente_/login.xhtml').delay(2_000).reply(200, 'too late');
            internals.login();
            const session = await internals.client({ retries: 3, timeoutMs: 400 }).login(internals.credentials());
            await session.close();
        });

        it('starts at most intervalCap requests per interval on one host', async () => {

            nock(internals.auth).get('/contribuyente_/login.xhtml').times(5).reply(503, 'Service Unavailable');
            const started = Date.now();
            expect(await internals.failureOf(internals.client({ retries: 4, perHost: { intervalCap: 2, interval: 100 } }).login(internals.credentials()))).to.equal('unavailable');
            expect(Date.now() - started).to.be.at.least(190);        // 5 requests: windows at 0, 100 and 200 ms
        });

        it('gives up on a request that keeps timing out', async () => {

            nock(internals.auth).get('/contribuyente_/login.xhtml').times(2).delay(300).reply(200, 'too late');
            expect(await internals.failureOf(internals.client({ retries: 1, timeoutMs: 50 }).login(internals.credentials()))).to.equal('unavailable');
        });

        it('treats an unknown page after the password as unexpected, without posting the password again', async () => {

            const counter = { posts: 0 };
            internals.passwordPost(internals.loginSteps(), counter).times(2).reply(200, '<html><body><p>Hola</p></body></html>', internals.html);
            expect(await internals.failureOf(internals.client({ retries: 3 }).login(internals.credentials()))).to.equal('unexpected_page');
            expect(counter.posts).to.equal(1);
        });

        it('posts the password again after a 5xx answer, never after a timeout', async () => {

            const counter = { posts: 0 };
            const steps = internals.loginSteps();
            internals.passwordPost(steps, counter).reply(503, internals.fixture('login/maintenance.html'), internals.html);
            internals.passwordPost(steps, counter).reply(302, '', { location: 'https://portalcf.cloud.afip.gob.ar/portal/app/' });
            nock(internals.portal).get('/portal/app/').reply(200, internals.fixture('login/portal.html'), internals.html);
            await (await internals.client({ retries: 3 }).login(internals.credentials())).close();
            expect(counter.posts).to.equal(2);

            counter.posts = 0;
            internals.passwordPost(internals.loginSteps(), counter).times(2).delay(2_000).reply(200, internals.fixture('login/wrong-password.html'), internals.html);
            expect(await internals.failureOf(internals.client({ retries: 3, timeoutMs: 400 }).login(internals.credentials()))).to.equal('unavailable');
            expect(counter.posts).to.equal(1);
        });
    });

    describe('services', () => {

        it('reports a service not adhered and a represented taxpayer unavailable', async () => {

            const session = await internals.session(internals.entity);
            nock(internals.portal)
                .get(`/portal/api/servicios/${internals.entity}/servicio/mcmp/autorizacion`).reply(403, internals.fixture('login/not-adhered.json'), internals.jsonType)
                .get(`/portal/api/servicios/${internals.entity}/servicio/sct/autorizacion`).reply(403, internals.fixture('login/represented-unavailable.json'), internals.jsonType);
            expect(await internals.failureOf(session.invoices('received', { fromDate: '2025-11-01', toDate: '2025-11-30' }))).to.equal('not_adhered');
            expect(await internals.failureOf(session.sct())).to.equal('represented_unavailable');
            await session.close();
        });

        it('reports a session sent back to the login form as unavailable, without retrying', async () => {

            const session = await internals.session(internals.person, { retries: 3 });
            internals.service('constancia-inscripcion', internals.person, internals.seti, '/padron-puc-constancia-internet/login.do', '/padron-puc-constancia-internet/index.do', '<html><body></body></html>');
            let asked = 0;
            nock(internals.seti).get('/padron-puc-constancia-internet/api/constancia').query(true).times(4)
                .reply(() => {

                    asked++;
                    return [302, '', { location: 'https://auth.afip.gob.ar/contribuyente_/login.xhtml' }];
                });
            nock(internals.auth).get('/contribuyente_/login.xhtml').times(4).reply(200, internals.fixture('login/login.xhtml.html'), internals.html);
            const error = await session.registry().catch((err: unknown) => err);
            expect(error).to.be.instanceOf(AuthorityFailure).with.property('kind', 'unavailable');
            expect((error as Error).message).to.match(/sesión vencida/);
            expect(asked).to.equal(1);
            await session.close();
        });

        it('refuses a represented CUIT the service does not offer', async () => {

            const session = await internals.session('30999999997' as Cuit);
            internals.service('mcmp', '30999999997' as Cuit, internals.mcmp, '/mcmp/jsp/login.do', '/mcmp/jsp/index.do', internals.fixture('mcmp/index.do.html'));
            expect(await internals.failureOf(session.invoices('issued', { fromDate: '2025-11-01', toDate: '2025-11-30' }))).to.equal('represented_unavailable');
            await session.close();
        });
    });

    describe('Mis Comprobantes', () => {

        const range = { fromDate: '2025-11-01', toDate: '2025-11-30' };

        const open = () => {

            internals.service('mcmp', internals.entity, internals.mcmp, '/mcmp/jsp/login.do', '/mcmp/jsp/index.do', internals.fixture('mcmp/index.do.html'));
            nock(internals.mcmp).get('/mcmp/jsp/setearContribuyente.do').query({ idContribuyente: '1' }).reply(200, internals.fixture('mcmp/menu.html'), internals.html);
        };

        const ajax = (query: Record<string, string>, file: string) => nock(internals.mcmp).get('/mcmp/jsp/ajax.do').query(query).reply(200, internals.fixture(`mcmp/${file}`), internals.jsonType);

        it('selects the represented taxpayer, waits while pending and reads every page', async () => {

            const session = await internals.session(internals.entity, { invoicesVia: 'json', pageSize: 2 });
            open();
            ajax({ f: 'generarConsulta', t: 'R', fechaEmision: '01/11/2025 - 30/11/2025', tiposComprobantes: '', cuitConsultada: internals.entity }, 'generarConsulta.json');
            ajax({ f: 'estimarResultados', id: '184522731' }, 'estimarResultados.json');
            ajax({ f: 'listaResultados', id: '184522731', start: '0', length: '2' }, 'listaResultados-PR.json');
            ajax({ f: 'listaResultados', id: '184522731', start: '0', length: '2' }, 'listaResultados-PR.json');
            ajax({ f: 'listaResultados', id: '184522731', start: '0', length: '2' }, 'listaResultados-R-page1.json');
            ajax({ f: 'listaResultados', id: '184522731', start: '2', length: '2' }, 'listaResultados-R-page2.json');
            const invoices = await session.invoices('received', range);
            expect(nock.pendingMocks()).to.deep.equal([]);
            expect(invoices).to.have.length(3);
            expect(invoices[0]).to.deep.equal({
                fecha: '2025-11-03', tipo: '1', puntoVenta: '4', numeroDesde: '120', numeroHasta: '120', codigoAutorizacion: '75443211234567',
                counterpart: { tipoDocumento: '80', numeroDocumento: '30500010912', nombre: 'TELECOM ARGENTINA SA' },
                impNetoGravado: 12396.69, impNetoNoGravado: 0, impOpExentas: 0, otrosTributos: 0, iva: 2603.31,
                tipoCambio: 1, importeOriginal: 15000, monedaOriginal: 'PES', importe: 15000
            });
            expect(invoices[1]).to.include({ tipo: '11', impNetoGravado: null, iva: null, importeOriginal: 48500.5, importe: 48500.5 });
            expect(invoices[2]).to.include({ monedaOriginal: 'DOL', tipoCambio: 1050.5, importeOriginal: 1210, importe: 1271105 });
            await session.close();
        });

        it('reads issued rows, whose emisor columns are absent', async () => {

            const session = await internals.session(internals.entity, { invoicesVia: 'json' });
            open();
            ajax({ f: 'generarConsulta', t: 'E', fechaEmision: '01/11/2025 - 30/11/2025', tiposComprobantes: '', cuitConsultada: internals.entity }, 'generarConsulta.json');
            ajax({ f: 'estimarResultados', id: '184522731' }, 'estimarResultados.json');
            ajax({ f: 'listaResultados', id: '184522731', start: '0', length: '100' }, 'listaResultados-E.json');
            const invoices = await session.invoices('issued', range);
            expect(invoices).to.deep.equal([
                {
                    fecha: '2025-11-05', tipo: '6', puntoVenta: '3', numeroDesde: '408', numeroHasta: '408', codigoAutorizacion: '75450000000001',
                    counterpart: { tipoDocumento: '99', numeroDocumento: '0', nombre: null },
                    impNetoGravado: null, impNetoNoGravado: null, impOpExentas: null, otrosTributos: null, iva: null,
                    tipoCambio: 1, importeOriginal: 2352.04, monedaOriginal: 'PES', importe: 2352.04
                },
                {
                    fecha: '2025-11-06', tipo: '1', puntoVenta: '3', numeroDesde: '409', numeroHasta: '409', codigoAutorizacion: '75450000000002',
                    counterpart: { tipoDocumento: '80', numeroDocumento: '30500010912', nombre: null },
                    impNetoGravado: 1000, impNetoNoGravado: 0, impOpExentas: 0, otrosTributos: 30, iva: 210,
                    tipoCambio: 1, importeOriginal: 1240, monedaOriginal: 'PES', importe: 1240
                }
            ]);
            await session.close();
        });

        it('downloads the zipped CSV once the query is finished', async () => {

            const session = await internals.session(internals.entity);
            open();
            ajax({ f: 'generarConsulta', t: 'R', fechaEmision: '01/11/2025 - 30/11/2025', tiposComprobantes: '', cuitConsultada: internals.entity }, 'generarConsulta.json');
            ajax({ f: 'estimarResultados', id: '184522731' }, 'estimarResultados.json');
            ajax({ f: 'listaResultados', id: '184522731', start: '0', length: '100' }, 'listaResultados-R-page1.json');
            nock(internals.mcmp).get('/mcmp/jsp/descargarComprobantes.do').query({ id: '184522731', tc: 'R', tf: 'csv' })
                .reply(200, internals.binary('mcmp/comprobantes_consulta_csv_recibidos_184522731_30712345671_20251215-1032.zip'), { 'content-type': 'application/zip' });
            const invoices = await session.invoices('received', range);
            expect(invoices).to.have.length(3);
            expect(invoices[0]).to.include({ fecha: '2025-12-01', impNetoGravado: 10492.9, iva: 2153.41, importeOriginal: 12646.31 });
            await session.close();
        });

        it('gives up on a query that stays pending', async () => {

            const session = await internals.session(internals.entity, { maxPolls: 2 });
            open();
            ajax({ f: 'generarConsulta', t: 'R', fechaEmision: '01/11/2025 - 30/11/2025', tiposComprobantes: '', cuitConsultada: internals.entity }, 'generarConsulta.json');
            ajax({ f: 'estimarResultados', id: '184522731' }, 'estimarResultados.json');
            nock(internals.mcmp).get('/mcmp/jsp/ajax.do').query({ f: 'listaResultados', id: '184522731', start: '0', length: '100' }).times(3).reply(200, internals.fixture('mcmp/listaResultados-PE.json'), internals.jsonType);
            expect(await internals.failureOf(session.invoices('received', range))).to.equal('unavailable');
            await session.close();
        });

        it('splits ranges longer than 365 days', () => {

            expect(splitRange({ fromDate: '2024-01-01', toDate: '2025-12-31' })).to.deep.equal([
                { fromDate: '2024-01-01', toDate: '2024-12-30' },
                { fromDate: '2024-12-31', toDate: '2025-12-30' },
                { fromDate: '2025-12-31', toDate: '2025-12-31' }
            ]);
            expect(splitRange({ fromDate: '2025-01-01', toDate: '2025-12-31' })).to.deep.equal([{ fromDate: '2025-01-01', toDate: '2025-12-31' }]);
        });
    });

    describe('CSV export generations', () => {

        it('chooses the generation by the header row', () => {

            expect(detectInvoiceCsvGeneration(internals.fixture('mcmp/comprobantes-recibidos-gen1.csv'))).to.equal(1);
            expect(detectInvoiceCsvGeneration(internals.fixture('mcmp/comprobantes-recibidos-gen2.csv'))).to.equal(2);
            expect(detectInvoiceCsvGeneration(internals.fixture('mcmp/comprobantes-recibidos-gen3.csv'))).to.equal(3);
            expect(detectInvoiceCsvGeneration(internals.fixture('mcmp/comprobantes-emitidos-gen3.csv'))).to.equal(3);
            expect(() => parseInvoicesCsv('"Fecha";"Importe"\r\n2025-01-01;1\r\n', 'received')).to.throw(AuthorityFailure).with.property('kind', 'unexpected_page');
        });

        it('reads the quoted, comma separated export before Oct 2023 ("1 - Factura A", $ and USD)', () => {

            const invoices = parseInvoicesCsv(internals.fixture('mcmp/comprobantes-recibidos-gen1.csv'), 'received');
            expect(invoices[0]).to.deep.equal({
                fecha: '2023-05-02', tipo: '1', puntoVenta: '4', numeroDesde: '120', numeroHasta: '120', codigoAutorizacion: '73183456789012',
                counterpart: { tipoDocumento: '80', numeroDocumento: '30500010912', nombre: 'TELECOM ARGENTINA SA' },
                impNetoGravado: 12396.69, impNetoNoGravado: 0, impOpExentas: 0, otrosTributos: null, iva: 2603.31,
                tipoCambio: 1, importeOriginal: 15000, monedaOriginal: 'PES', importe: 15000
            });
            expect(invoices[1]).to.include({ tipo: '11', impNetoGravado: null, iva: null, importeOriginal: 48500.5 });
            expect(invoices[2]).to.include({ monedaOriginal: 'DOL', tipoCambio: 236.75, importeOriginal: 1210, importe: 286467.5 });
        });

        it('reads the 17-column export of Oct 2023 - Aug 2025 (PES/DOL, empty cells)', () => {

            const invoices = parseInvoicesCsv(internals.fixture('mcmp/comprobantes-recibidos-gen2.csv'), 'received');
            expect(invoices).to.have.length(3);
            expect(invoices[0]).to.include({ fecha: '2024-11-03', otrosTributos: 150.25, importeOriginal: 15150.25, monedaOriginal: 'PES' });
            expect(invoices[0]!.counterpart.nombre).to.equal('TELECOM ARGENTINA SA');
            expect(invoices[1]).to.include({ tipo: '6', impNetoGravado: null, impNetoNoGravado: null, iva: null, importe: 48500.5 });
            expect(invoices[2]).to.include({ monedaOriginal: 'DOL', tipoCambio: 1050.5, importe: 1271105 });
        });

        it('reads the per-rate export since Sep 2025 (ISO dates, 1475,006 rates, totals per rate)', () => {

            const received = parseInvoicesCsv(internals.fixture('mcmp/comprobantes-recibidos-gen3.csv'), 'received');
            expect(received[0]).to.deep.equal({
                fecha: '2025-12-01', tipo: '1', puntoVenta: '4', numeroDesde: '120', numeroHasta: '120', codigoAutorizacion: '75443211234567',
                counterpart: { tipoDocumento: '80', numeroDocumento: '30500010912', nombre: 'TELECOM ARGENTINA SA' },
                impNetoGravado: 10492.9, impNetoNoGravado: 0, impOpExentas: 0, otrosTributos: 0, iva: 2153.41,
                tipoCambio: 1, importeOriginal: 12646.31, monedaOriginal: 'PES', importe: 12646.31
            });
            expect(received[1]).to.include({ tipo: '11', impNetoGravado: null, iva: null, importeOriginal: 48500.5 });
            expect(received[1]!.counterpart.nombre).to.equal('RIVAS JUAN PABLO');
            expect(received[2]).to.include({ tipo: '3', monedaOriginal: 'DOL', tipoCambio: 1475.006, importeOriginal: 121, importe: 178475.73 });

            const issued = parseInvoicesCsv(internals.fixture('mcmp/comprobantes-emitidos-gen3.csv'), 'issued');
            expect(issued.map((invoice) => invoice.counterpart)).to.deep.equal([
                { tipoDocumento: '99', numeroDocumento: '0', nombre: null },
                { tipoDocumento: '80', numeroDocumento: '30500010912', nombre: 'TELECOM ARGENTINA SA' },
                { tipoDocumento: '80', numeroDocumento: '30710000007', nombre: 'SOFTWARE ANDINO SAS' }
            ]);
            expect(issued[2]).to.include({ importeOriginal: 242, tipoCambio: 1450.25, importe: 350960.5 });
        });

        it('refuses the issued header for a received export', () => {

            expect(() => parseInvoicesCsv(internals.fixture('mcmp/comprobantes-emitidos-gen3.csv'), 'received')).to.throw(AuthorityFailure);
        });

        it('reads ZIP archives written by other tools, and its own', () => {

            const [entry] = readZip(internals.binary('mcmp/comprobantes_consulta_csv_recibidos_184522731_30712345671_20251215-1032.zip'));
            expect(entry!.name).to.equal('comprobantes_consulta_csv_recibidos_184522731_30712345671_20251215-1032.csv');
            expect(entry!.data.toString('utf8')).to.equal(internals.fixture('mcmp/comprobantes-recibidos-gen3.csv'));
            const [again] = readZip(writeZip([{ name: 'a.csv', data: Buffer.from('ñandú;1,5\r\n') }]));
            expect(again!.data.toString('utf8')).to.equal('ñandú;1,5\r\n');
            expect(() => readZip(Buffer.from('PK\u0003\u0004 roto'))).to.throw();
        });
    });

    describe('SCT', () => {

        it('reads debts with dot thousands, comma decimals and joined concepts', () => {

            expect(parseSctDebts(internals.fixture('sct/deudas.csv'))).to.deep.equal([
                { establecimiento: '', impuesto: '30 - IVA', concepto: '19 - Obligación mensual/anual', subconcepto: '19 - Capital', periodo: '202503', antCuota: '0', vencimiento: '2025-04-22T00:00:00.000Z', saldo: 63133.14, intResarcitorios: 8211.07, intPunitorios: 0 },
                { establecimiento: '', impuesto: '10 - GANANCIAS PERSONAS HUMANAS', concepto: '19 - Obligación mensual/anual', subconcepto: '51 - Intereses resarcitorios', periodo: '202400', antCuota: '3', vencimiento: null, saldo: 1250, intResarcitorios: 0, intPunitorios: 112.4 }
            ]);
            expect(parseSctDebts(internals.fixture('sct/deudas-establecimientos.csv'))).to.deep.equal([
                { establecimiento: '1 - SUCURSAL ROSARIO', impuesto: '301 - EMPLEADOR-APORTES SEG. SOCIAL', concepto: '19 - Obligación mensual/anual', subconcepto: '19 - Capital', periodo: '202509', antCuota: '0', vencimiento: '2025-10-09T00:00:00.000Z', saldo: 1402118.55, intResarcitorios: 25003.1, intPunitorios: 0 }
            ]);
        });

        it('reads due dates and sworn returns, and "No se encontraron datos" as an empty block', () => {

            expect(parseSctDueDates(internals.fixture('sct/vencimientos.csv'))).to.deep.equal([
                { impuesto: '30 - IVA', concepto: '19 - Obligación mensual/anual', subconcepto: '19 - Capital', periodo: '202511', antCuota: '0', vencimiento: '2025-12-18T00:00:00.000Z', detalle: 'Presentación y pago' },
                { impuesto: '20 - MONOTRIBUTO IMPOSITIVO', concepto: '19 - Obligación mensual/anual', subconcepto: '19 - Capital', periodo: '202512', antCuota: '0', vencimiento: '2025-12-22T00:00:00.000Z', detalle: 'Pago' }
            ]);
            expect(parseSctReturns(internals.fixture('sct/ddjj.csv'))).to.deep.equal([
                { establecimiento: '', impuesto: '30 - IVA', concepto: 'Declaración jurada', subconcepto: 'Original', periodo: '202510', antCuota: '0', vencimiento: '2025-11-18T00:00:00.000Z' },
                { establecimiento: '', impuesto: '30 - IVA', concepto: 'Declaración jurada', subconcepto: 'Rectificativa 1', periodo: '202509', antCuota: '0', vencimiento: '2025-10-20T00:00:00.000Z' }
            ]);
            expect(parseSctDebts(internals.fixture('sct/vacio.csv'))).to.deep.equal([]);
            expect(parseSctReturns(internals.fixture('sct/vacio.csv'))).to.deep.equal([]);
        });

        it('opens the service for the represented CUIT and exports the three blocks', async () => {

            const session = await internals.session(internals.entity);
            internals.service('sct', internals.entity, internals.sct, '/sct/login.do', '/sct/index.do', internals.fixture('sct/index.do.html'));
            const block = (bloque: string, file: string) => nock(internals.sct).get('/sct/exportar.do').query({ cuit: internals.entity, bloque, formato: 'csv' }).reply(200, internals.fixture(`sct/${file}`), { 'content-type': 'text/csv' });
            block('deudas', 'deudas-establecimientos.csv');
            block('vencimientos', 'vacio.csv');
            block('ddjj', 'ddjj.csv');
            const sct = await session.sct();
            expect(sct.deuda).to.have.length(1);
            expect(sct.vencimientos).to.deep.equal([]);
            expect(sct.ddjj).to.have.length(2);
            await session.close();
        });
    });

    describe('CCMA (assumed surface)', () => {

        it('reads the summary and the movements with their running balance', async () => {

            const session = await internals.session(internals.entity);
            internals.service('ccma', internals.entity, internals.ccma, '/ccma/login.do', '/ccma/index.do', internals.fixture('ccma/index.do.html'));
            nock(internals.ccma)
                .get('/ccma/resumen.do').query({ cuit: internals.entity }).reply(200, internals.fixture('ccma/resumen.do.html'), internals.html)
                .get('/ccma/movimientos.do').query({ cuit: internals.entity }).reply(200, internals.fixture('ccma/movimientos.do.html'), internals.html);
            const { balances, movements } = await session.ccma();
            expect(balances).to.deep.equal({ saldoDeudor: 42690.96, saldoAcreedor: null });
            expect(movements).to.have.length(4);
            expect(movements[0]).to.deep.equal({
                orden: 1, periodo: '09/2026', impuesto: '20 - MONOTRIBUTO IMPOSITIVO', concepto: 'Obligación mensual', subconcepto: 'Capital',
                descripcion: 'Determinación de la obligación mensual', fechaMovimiento: '2026-10-01T00:00:00.000Z', debe: 41049, haber: null, saldo: -41049
            });
            expect(movements[3]).to.include({ orden: 4, descripcion: 'Intereses resarcitorios devengados & otros', debe: 1641.96, haber: null, saldo: -42690.96 });
            await session.close();
        });

        it('reads "No se encontraron datos" as unreported balances and no movements', () => {

            expect(parseCcmaBalances(internals.fixture('ccma/sin-datos.html'))).to.deep.equal({ saldoDeudor: null, saldoAcreedor: null });
            expect(parseCcmaMovements(internals.fixture('ccma/sin-datos.html'))).to.deep.equal([]);
        });
    });

    describe('DFE', () => {

        it('lists every page of communications and never opens one', async () => {

            const session = await internals.session(internals.entity);
            internals.service('e-ventanilla', internals.entity, internals.ve, '/login', '/', '<html><body><div id="app"></div></body></html>');
            let detailCalls = 0;
            nock(internals.ve)
                .get('/api/v1/communications').query((query) => query.cuit === internals.entity && query.pagina === '1' && Number(query.fechaPublicacionSince) < Number(query.fechaPublicacionTo))
                .reply(200, internals.fixture('dfe/communications-page1.json'), internals.jsonType)
                .get('/api/v1/communications').query((query) => query.pagina === '2')
                .reply(200, internals.fixture('dfe/communications-page2.json'), internals.jsonType)
                .get(/\/api\/v1\/communications\/\d+/).optionally().times(10).reply(() => {

                    detailCalls++;
                    return [200, '{}'];
                });
            const notifications = await session.notifications();
            expect(detailCalls).to.equal(0);
            expect(notifications).to.deep.equal([
                { arcaId: '71823001', tipo: 'Intimación', asunto: 'Intimación por falta de presentación de DDJJ IVA', organismo: 'ARCA', fechaRecepcion: '2025-11-06T12:00:00.000Z', fechaNotificacion: '2025-11-07T12:00:00.000Z', readAtAuthority: false },
                { arcaId: '71790455', tipo: 'Comunicación', asunto: 'Novedades del domicilio fiscal electrónico', organismo: 'DGI', fechaRecepcion: '2025-10-07T12:00:00.000Z', fechaNotificacion: null, readAtAuthority: true },
                { arcaId: '71700012', tipo: 'Notificación', asunto: 'Recategorización de oficio', organismo: 'ARCA', fechaRecepcion: '2025-07-31T22:13:20.000Z', fechaNotificacion: '2025-08-01T22:13:20.000Z', readAtAuthority: true }
            ]);
            await session.close();
        });

        it('refuses an unknown read state', () => {

            expect(() => parseCommunications({ comunicaciones: [{ idComunicacion: 1, fechaPublicacion: 1, estado: 9 }] })).to.throw(AuthorityFailure);
        });
    });

    describe('registry', () => {

        it('reads the monotributo category letter, the autónomo tax 308 and neither', async () => {

            expect(parseRegistry(JSON.parse(internals.fixture('registry/monotributo.json')))).to.deep.equal({ monotributista: true, autonomo: false, categoria: 'F' });
            expect(parseRegistry(JSON.parse(internals.fixture('registry/autonomo.json')))).to.deep.equal({ monotributista: false, autonomo: true, categoria: null });
            expect(parseRegistry(JSON.parse(internals.fixture('registry/sociedad.json')))).to.deep.equal({ monotributista: false, autonomo: false, categoria: null });

            const session = await internals.session();
            internals.service('constancia-inscripcion', internals.person, internals.seti, '/padron-puc-constancia-internet/login.do', '/padron-puc-constancia-internet/index.do', '<html><body></body></html>');
            nock(internals.seti).get('/padron-puc-constancia-internet/api/constancia').query({ cuit: internals.person })
                .reply(200, '{"personaReturn":', internals.jsonType)                // malformed: retried
                .get('/padron-puc-constancia-internet/api/constancia').query({ cuit: internals.person })
                .reply(200, internals.fixture('registry/monotributo.json'), internals.jsonType);
            expect(await session.registry()).to.deep.equal({ monotributista: true, autonomo: false, categoria: 'F' });
            await session.close();
        });
    });
});
