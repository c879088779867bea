import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { createDiagnostics } from '../../../adapters/authority/arca/diagnostics.js';
import type { ArcaClient, ArcaClientOptions } from '../../../adapters/authority/arca/index.js';
import { createArcaClient } from '../../../adapters/authority/arca/index.js';
import { parseInvoicesCsv } from '../../../adapters/authority/arca/invoices-csv.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import type { CcmaMovement } from '../../../core/domain/ccma.js';
import type { AuthorityFailure, KeySession } from '../../../core/ports/authority-client.js';
import type { VirtualClock } from '../../support/clock.js';
import { virtualClock } from '../../support/clock.js';

// The arca adapter against the real hosts' addresses, answered by nock with fixtures that follow
// docs/authority.md to the byte where it gives bytes (test/fixtures/arca): field names, headers,
// cookies, number and date formats. nock is switched on only for this suite.
nock.restore();

const internals = {
    auth: 'https://auth.afip.gob.ar',
    portal: 'https://portalcf.cloud.afip.gob.ar',
    fes: 'https://fes.afip.gob.ar',
    ctacte: 'https://ctacte.cloud.afip.gob.ar',
    ccam: 'https://servicios2.afip.gob.ar',
    ve: 'https://ve.cloud.afip.gob.ar',
    mono: 'https://monotributo.afip.gob.ar',
    person: '20123456786' as Cuit,
    entity: '30712345671' as Cuit,
    password: 'Secreta-123',
    viewState1: '-3481249720163413457:2184637120497132688',
    viewState2: '-3481249720163413457:-911275263354901231',
    jwt: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIyMDEyMzQ1Njc4NiIsImV4cCI6MTc2MzY0MDAxMH0.c2lnbmF0dXJhLWRlLXBydWViYQ',
    html: { 'content-type': 'text/html;charset=UTF-8' },
    latin1: { 'content-type': 'text/html; Charset=ISO-8859-1' },
    json: { 'content-type': 'application/json;charset=UTF-8' },
    blockWaitMs: 15 * 60_000,

    fixture(path: string): string {

        return readFileSync(new URL(`../../fixtures/arca/${path}`, import.meta.url), 'utf8');
    },

    bytes(path: string): Buffer {

        return readFileSync(new URL(`../../fixtures/arca/${path}`, import.meta.url));
    },

    authorization(): { token: string; sign: string } {

        return JSON.parse(internals.fixture('portal/autorizacion.json')) as { token: string; sign: string };
    },

    client(clock: VirtualClock, options: ArcaClientOptions = {}): ArcaClient {

        return createArcaClient({
            clock,
            retries: 2,
            backoffMs: 1,
            maxBackoffMs: 2,
            timeoutMs: 2_000,
            pollIntervalMs: 2_000,
            blockWaitMs: internals.blockWaitMs,
            ...options
        });
    },

    // GET login.xhtml and the CUIT POST, checking what a browser sends.
    loginSteps(): nock.Scope {

        return nock(internals.auth, { reqheaders: { 'user-agent': /Mozilla\/5\.0 .*Chrome/ } })
            .get('/contribuyente_/login.xhtml')
            .reply(200, internals.fixture('login/login.xhtml.html'), {
                ...internals.html,
                'set-cookie': ['JSESSIONID=0000aBcD:1f2g3h; Path=/contribuyente_; Secure; HttpOnly', 'TS01a2b3c4=01ff; Path=/']
            })
            .post(
                '/contribuyente_/login.xhtml;jsessionid=0000aBcD:1f2g3h',
                (
                    body: Record<string, string>
                ) => body.F1 === 'F1' && body['F1:username'] === internals.person && body['F1:btnSiguiente'] === 'Siguiente' && body['javax.faces.ViewState'] === internals.viewState1
            )
            .matchHeader('cookie', /JSESSIONID=0000aBcD:1f2g3h/)
            .matchHeader('content-type', 'application/x-www-form-urlencoded')
            .reply(200, internals.fixture('login/loginClave.xhtml.html'), internals.html);
    },

    passwordPost(scope: nock.Scope, counter: { posts: number }): nock.Interceptor {

        return scope.post('/contribuyente_/loginClave.xhtml', (body: Record<string, string>) => {

            counter.posts++;
            return body['F1:password'] === internals.password && body['F1:username'] === internals.person && body['F1:captcha'] === '' && body['F1:btnIngresar'] === 'Ingresar' && body['javax.faces.ViewState'] === internals.viewState2;
        }).matchHeader('cookie', /TS01a2b3c4=01ff/);
    },

    // A complete login: the jwt POSTed to the portal sets AFIPSID; /portal/api/info checks it.
    login(counter = { posts: 0 }): { posts: number } {

        internals.passwordPost(internals.loginSteps(), counter).reply(200, internals.fixture('login/jwt.html'), internals.html);
        nock(internals.portal)
            .post('/portal/login', { jwt: internals.jwt })
            .matchHeader('origin', internals.auth)
            .reply(302, '', { location: '/portal/app/', 'set-cookie': 'AFIPSID=7F3A9C0D2E; Path=/; Secure; HttpOnly' })
            .get('/portal/api/info')
            .matchHeader('cookie', /AFIPSID=7F3A9C0D2E/)
            .reply(200, internals.fixture('portal/info.json'), internals.json);
        return counter;
    },

    // The portal's token/sign for a service (path with the LOGIN CUIT), posted to its entry.
    service(name: string, times = 1): void {

        nock(internals.portal).get(`/portal/api/servicios/${internals.person}/servicio/${name}/autorizacion`).times(times).matchHeader('cookie', /AFIPSID=7F3A9C0D2E/).reply(200, internals.fixture('portal/autorizacion.json'), internals.json);
    },

    async session(clock: VirtualClock, options: ArcaClientOptions = {}): Promise<KeySession> {

        internals.login();
        return internals.client(clock, options).login({ loginCuit: internals.person, password: internals.password });
    },

    async failureOf(promise: Promise<unknown>): Promise<AuthorityFailure> {

        try {
            await promise;
        }
        catch (err) {
            if ((err as Error).name !== 'AuthorityFailure') {
                throw err;
            }

            return err as AuthorityFailure;
        }

        throw new Error('expected a failure');
    },

    // Mis Comprobantes entered, with the selection page of a key that represents an entity.
    fesEntry(scope: nock.Scope, page = 'mcmp/seleccionaEmpresa.html', onRequest?: () => void): nock.Scope {

        const { token, sign } = internals.authorization();
        return scope.post('/mcmp/jsp/index.do', { token, sign })
            .reply(() => {

                onRequest?.();
                return [200, internals.fixture(page), { ...internals.html, 'set-cookie': ['JSESSIONID=fes-1; Path=/mcmp; Secure', `SESSION_TOKEN=${Buffer.from('<sso><login uid="20123456786" exp_time="1765812000"/></sso>').toString('base64')}; Path=/; Secure`] }];
            });
    },

    // A logged-in key whose Mis Comprobantes answers its entry with the selection page.
    async fesSession(clock: VirtualClock): Promise<{ session: KeySession; fes: nock.Scope }> {

        const session = await internals.session(clock);
        internals.service('mcmp');
        const fes = nock(internals.fes);
        internals.fesEntry(fes);
        return { session, fes };
    },

    ajax(scope: nock.Scope, f: string, kind: 'E' | 'R', query?: Record<string, string>): nock.Interceptor {

        return scope.get('/mcmp/jsp/ajax.do').query(query ?? ((sent) => sent.f === f))
            .matchHeader('x-requested-with', 'XMLHttpRequest')
            .matchHeader('referer', `https://fes.afip.gob.ar/mcmp/jsp/${kind === 'E' ? 'comprobantesEmitidos' : 'comprobantesRecibidos'}.do`);
    }
};

describe('arca adapter on recorded pages (nock)', () => {

    let clock: VirtualClock;

    before(() => {

        if (!nock.isActive()) {
            nock.activate();
        }

        nock.disableNetConnect();
    });

    beforeEach(() => {

        clock = virtualClock('2025-12-15T13:32:00Z');
    });

    afterEach(() => {

        nock.cleanAll();
    });

    after(() => {

        nock.enableNetConnect();
        nock.restore();
    });

    describe('login', () => {

        it('posts the CUIT and the password once, then the hidden jwt to portal/login at once; AFIPSID opens the portal', async () => {

            const counter = internals.login();
            const session = await internals.client(clock).login({ loginCuit: internals.person, password: internals.password });
            await session.close();
            expect(nock.pendingMocks()).to.deep.equal([]);
            expect(counter.posts).to.equal(1);
        });

        for (const [label, answer, kind] of [
            [
                'the password page again with "Clave o usuario incorrecto"',
                (i: nock.Interceptor) => i.reply(200, internals.fixture('login/wrong-key.html'), internals.html),
                'rejected_key'
            ],
            [
                'a bounce to the CUIT page with "Clave o usuario incorrecto"',
                (i: nock.Interceptor) => i.reply(200, internals.fixture('login/wrong-key-bounce.html'), internals.html),
                'rejected_key'
            ],
            [
                'the forced key change (cambioClaveForzado.xhtml)',
                (i: nock.Interceptor) => i.reply(302, '', { location: '/contribuyente_/cambioClaveForzado.xhtml' }),
                'expired_key'
            ],
            [
                'a CAPTCHA after the password',
                (i: nock.Interceptor) => i.reply(200, internals.fixture('login/loginClave-captcha.html'), internals.html),
                'captcha'
            ],
            [
                'the second-factor screen ("TU TOKEN")',
                (i: nock.Interceptor) => i.reply(200, internals.fixture('login/second-factor.html'), internals.html),
                'second_factor'
            ],
            ['a 503 after the password', (i: nock.Interceptor) => i.reply(503, 'Service Unavailable'), 'unavailable'],
            [
                'a timeout after the password',
                (i: nock.Interceptor) => i.delay(10_000).reply(200, internals.fixture('login/jwt.html'), internals.html),
                'unavailable'
            ]
        ] as const) {
            it(`recognises ${label}, posted once and marked as having touched the password`, async () => {

                const counter = { posts: 0 };
                answer(internals.passwordPost(internals.loginSteps(), counter));
                nock(internals.auth).get('/contribuyente_/cambioClaveForzado.xhtml').optionally().reply(
                    200,
                    internals.fixture('login/cambioClaveForzado.xhtml.html'),
                    internals.html
                );
                // A timeout long enough that only the delayed answer meets it, never a step
                // before the password slowed by a busy machine.
                const failure = await internals.failureOf(
                    internals.client(clock, { retries: 3, timeoutMs: 1_500 }).login({ loginCuit: internals.person, password: internals.password })
                );
                expect([failure.kind, failure.touchedPassword]).to.deep.equal([kind, true]);
                expect(counter.posts).to.equal(1);
                expect(failure.message).to.not.include(internals.password);
            });
        }

        it('stops before the password when the password page already shows a CAPTCHA', async () => {

            nock(internals.auth)
                .get('/contribuyente_/login.xhtml').reply(200, internals.fixture('login/login.xhtml.html'), internals.html)
                .post('/contribuyente_/login.xhtml;jsessionid=0000aBcD:1f2g3h').reply(200, internals.fixture('login/loginClave-captcha.html'), internals.html);
            const failure = await internals.failureOf(internals.client(clock).login({ loginCuit: internals.person, password: internals.password }));
            expect([failure.kind, failure.touchedPassword]).to.deep.equal(['captcha', false]);
            expect(nock.pendingMocks()).to.deep.equal([]);
        });

        it('retries a 5xx before the password, never after it', async () => {

            nock(internals.auth).get('/contribuyente_/login.xhtml').reply(502, 'Bad Gateway');
            const counter = internals.login();
            await (await internals.client(clock).login({ loginCuit: internals.person, password: internals.password })).close();
            expect(counter.posts).to.equal(1);
            expect(nock.pendingMocks()).to.deep.equal([]);
        });

        it('an expired jwt (no AFIPSID) is an unexpected page after the password', async () => {

            internals.passwordPost(internals.loginSteps(), { posts: 0 }).reply(200, internals.fixture('login/jwt.html'), internals.html);
            nock(internals.portal).post('/portal/login').reply(302, '', { location: 'https://auth.afip.gob.ar/contribuyente_/login.xhtml' });
            const failure = await internals.failureOf(internals.client(clock).login({ loginCuit: internals.person, password: internals.password }));
            expect([failure.kind, failure.touchedPassword]).to.deep.equal(['unexpected_page', true]);
        });

        it('captures an unknown page with its system and step, with no password, jwt, token, sign or cookie in it (in clear, URL-encoded, base64 or hex), no session id, and personal data masked', async () => {

            const dir = mkdtempSync(join(tmpdir(), 'arcasync-diag-'));
            try {
                const captured: string[] = [];
                const diagnostics = createDiagnostics({ dir, onCapture: (page) => captured.push(`${page.system}/${page.step}`) });
                internals.passwordPost(internals.loginSteps(), { posts: 0 }).reply(200, internals.fixture('login/unknown-after-password.html'), internals.html);
                const failure = await internals.failureOf(internals.client(clock, { diagnostics }).login({
                    loginCuit: internals.person,
                    password: internals.password
                }));
                expect([failure.kind, failure.touchedPassword]).to.deep.equal(['unexpected_page', true]);
                expect(captured).to.deep.equal(['login/loginClave.xhtml']);
                expect(diagnostics.captured).to.equal(1);
                const files = readdirSync(dir);
                expect(files).to.have.length(1);
                const text = readFileSync(join(dir, files[0]!), 'utf8');
                expect(text).to.include('Aviso importante').and.include('sistema: login');
                for (const secret of [
                    internals.password,
                    internals.jwt,
                    internals.viewState2,
                    '0000aBcD:1f2g3h',
                    'TS01a2b3c4',
                    '01ff',
                    Buffer.from(internals.password).toString('base64'),
                    Buffer.from(internals.password).toString('hex'),
                    '8F1E2D3C4B5A69788796A5B4C3D2E1F0',
                    'GONZÁLEZ',
                    'maria.gonzalez',
                    'CORRIENTES'
                ]) {
                    expect(text, secret).to.not.include(secret);
                }

                expect(text).to.not.match(/;jsessionid=/i);
                // The structure stays: the tags, the labels, the masked values' shape.
                expect(text).to.include('<p class="usuario">Hola, XXXXXXXX XXXXX XXXXX</p>').and.include(
                    '<td>Domicilio fiscal:</td><td>XX. XXXXXXXXXX 0000 XXXX 0, XXXX</td>'
                ).and.include('XXXXX.XXXXXXXX@XXXXXX.XXX.XX');
            }
            finally {
                rmSync(dir, { recursive: true, force: true });
            }
        });
    });

    describe('services', () => {

        it('a 200 without token/sign is "not adhered", and nothing is adhered on the taxpayer\'s behalf', async () => {

            const session = await internals.session(clock);
            nock(internals.portal).get(`/portal/api/servicios/${internals.person}/servicio/ccam/autorizacion`).reply(200, internals.fixture('portal/autorizacion-no-adherido.json'), internals.json);
            expect((await internals.failureOf(session.taxpayer(internals.person).ccma())).kind).to.equal('not_adhered');
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });
    });

    describe('Mis Comprobantes', () => {

        const range = { fromDate: '2025-12-01', toDate: '2025-12-15' };

        it('picks the card that shows the CUIT (index 0 is not the login CUIT), checks REPRESENTANDO A, paces fes 1.2 s apart and reads the gen-3 CSV', async () => {

            const session = await internals.session(clock);
            internals.service('mcmp');
            const at: number[] = [];
            const stamp = () => at.push(clock.now());
            const fes = nock(internals.fes);
            internals.fesEntry(fes, 'mcmp/seleccionaEmpresa.html', stamp);
            fes.post('/mcmp/jsp/setearContribuyente.do', { idContribuyente: '0' }).reply(() => {

                stamp();
                return [200, internals.fixture('mcmp/menu-entidad.html'), internals.html];
            });
            internals.ajax(fes, 'generarConsulta', 'R', {
                f: 'generarConsulta',
                t: 'R',
                fechaEmision: '01/12/2025 - 15/12/2025',
                tiposComprobantes: '',
                cuitConsultada: internals.entity
            }).reply(() => {

                stamp();
                return [200, internals.fixture('mcmp/generarConsulta.json'), internals.json];
            });
            internals.ajax(fes, 'estimarResultados', 'R', { f: 'estimarResultados', id: '184522731' }).reply(() => {

                stamp();
                return [200, internals.fixture('mcmp/estimarResultados.json'), internals.json];
            });
            internals.ajax(fes, 'listaResultados', 'R', { f: 'listaResultados', id: '184522731' }).reply(() => {

                stamp();
                return [200, internals.fixture('mcmp/listaResultados-PE.json'), internals.json];
            });
            internals.ajax(fes, 'listaResultados', 'R', { f: 'listaResultados', id: '184522731' }).reply(() => {

                stamp();
                return [200, internals.fixture('mcmp/listaResultados.json'), internals.json];
            });
            fes.get('/mcmp/jsp/descargarComprobantes.do').query({ id: '184522731', tc: 'R', tf: 'csv' }).matchHeader('cookie', /JSESSIONID=fes-1/).reply(() => {

                stamp();
                return [
                    200,
                    internals.bytes('mcmp/comprobantes_consulta_csv_recibidos_184522731_20123456786_20251215-1032.zip'),
                    { 'content-type': 'application/zip' }
                ];
            });

            const rows = await session.taxpayer(internals.entity).invoices('received', range);
            expect(nock.pendingMocks()).to.deep.equal([]);
            expect(rows).to.have.length(4);
            expect(rows[0]).to.deep.include({
                fecha: '2025-12-01',
                tipo: '1',
                puntoVenta: '4',
                impNetoGravado: 10492.9,
                iva: 2153.41,
                otrosTributos: 150.25,
                importeOriginal: 12796.56,
                monedaOriginal: 'PES',
                tipoCambio: 1
            });
            expect(rows[0]!.counterpart).to.deep.equal({ tipoDocumento: '80', numeroDocumento: '30500010912', nombre: 'TELECOM ARGENTINA SA' });
            // B and C: 0,00 in every component means "not discriminated", not zero.
            expect(rows[1]).to.deep.include({ tipo: '6', impNetoGravado: null, iva: null, importeOriginal: 48500.5 });
            expect(rows[2]).to.deep.include({ monedaOriginal: 'DOL', tipoCambio: 1475.006, importeOriginal: 121, importe: 178475.73 });
            expect(rows[3]).to.deep.include({ tipo: '13', importeOriginal: 3200, impNetoNoGravado: null });
            // Strictly sequential, at least 1.2 s apart (the poll waits its own 2 s on top).
            for (let i = 1; i < at.length; ++i) {
                expect(at[i]! - at[i - 1]!, `request ${i}`).to.be.at.least(1_200);
            }

            await session.close();
        });

        it('selects the login CUIT by its card too, and reads nothing when "No existe información"', async () => {

            const { session, fes } = await internals.fesSession(clock);
            fes.post('/mcmp/jsp/setearContribuyente.do', { idContribuyente: '1' }).reply(200, internals.fixture('mcmp/menu-persona.html'), internals.html);
            internals.ajax(fes, 'generarConsulta', 'E').reply(200, internals.fixture('mcmp/generarConsulta.json'), internals.json);
            internals.ajax(fes, 'estimarResultados', 'E').reply(200, internals.fixture('mcmp/estimarResultados.json'), internals.json);
            internals.ajax(fes, 'listaResultados', 'E').reply(200, internals.fixture('mcmp/no-existe.json'), internals.json);
            expect(await session.taxpayer(internals.person).invoices('issued', range)).to.deep.equal([]);
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });

        it('"registra irregularidades … Err: 002" at the selection is its own failure', async () => {

            const { session, fes } = await internals.fesSession(clock);
            fes.post('/mcmp/jsp/setearContribuyente.do').reply(200, internals.fixture('mcmp/irregularidades.html'), internals.html);
            expect((await internals.failureOf(session.taxpayer(internals.entity).invoices('issued', range))).kind).to.equal('irregularities');
        });

        it('never cuts a list short: a CSV with fewer rows than the query counted is an error', async () => {

            const { session, fes } = await internals.fesSession(clock);
            fes.post('/mcmp/jsp/setearContribuyente.do').reply(200, internals.fixture('mcmp/menu-entidad.html'), internals.html);
            internals.ajax(fes, 'generarConsulta', 'R').reply(200, internals.fixture('mcmp/generarConsulta.json'), internals.json);
            internals.ajax(fes, 'estimarResultados', 'R').reply(200, internals.fixture('mcmp/estimarResultados.json'), internals.json);
            internals.ajax(fes, 'listaResultados', 'R').reply(200, internals.fixture('mcmp/listaResultados-5.json'), internals.json);
            fes.get('/mcmp/jsp/descargarComprobantes.do').query(true).reply(
                200,
                internals.bytes('mcmp/comprobantes_consulta_csv_recibidos_184522731_20123456786_20251215-1032.zip'),
                { 'content-type': 'application/zip' }
            );
            expect((await internals.failureOf(session.taxpayer(internals.entity).invoices('received', range))).kind).to.equal('unexpected_page');
        });

        for (const [label, status, answer] of [['a "BL…" body', 200, 'BL0123456789 2025-12-15 10:32:00'], ['an empty 503', 503, '']] as const) {
            it(`${label}: no request to fes for the configured wait, the service reopened once, then fes given up for the key`, async () => {

                const session = await internals.session(clock);
                internals.service('mcmp', 2);
                const fes = nock(internals.fes);
                let reopenedAt = 0;
                let blockedAt = 0;
                const block = (interceptor: nock.Interceptor) => interceptor.reply(() => {

                    blockedAt ||= clock.now();
                    return [status, answer, { 'content-type': 'text/html' }];
                });
                internals.fesEntry(fes);
                fes.post('/mcmp/jsp/setearContribuyente.do').reply(200, internals.fixture('mcmp/menu-entidad.html'), internals.html);
                block(internals.ajax(fes, 'generarConsulta', 'R', {
                    f: 'generarConsulta',
                    t: 'R',
                    fechaEmision: '01/12/2025 - 15/12/2025',
                    tiposComprobantes: '',
                    cuitConsultada: internals.entity
                }));
                internals.fesEntry(fes, 'mcmp/seleccionaEmpresa.html', () => {

                    reopenedAt = clock.now();
                });
                fes.post('/mcmp/jsp/setearContribuyente.do').reply(200, internals.fixture('mcmp/menu-entidad.html'), internals.html);
                block(internals.ajax(fes, 'generarConsulta', 'R'));

                const taxpayer = session.taxpayer(internals.entity);
                expect((await internals.failureOf(taxpayer.invoices('received', range))).kind).to.equal('firewall_block');
                expect(reopenedAt - blockedAt).to.be.at.least(internals.blockWaitMs);
                expect(nock.pendingMocks()).to.deep.equal([]);
                // Given up: the next query of the key fails at once, without a request.
                expect((await internals.failureOf(taxpayer.invoices('issued', range))).kind).to.equal('firewall_block');
                await session.close();
            });
        }

        it('an expired fes session ("sesión ha expirado") is reopened once and the query goes on', async () => {

            const session = await internals.session(clock);
            internals.service('mcmp', 2);
            const fes = nock(internals.fes);
            internals.fesEntry(fes);
            fes.post('/mcmp/jsp/setearContribuyente.do').times(2).reply(200, internals.fixture('mcmp/menu-entidad.html'), internals.html);
            internals.ajax(fes, 'generarConsulta', 'R').reply(200, internals.fixture('mcmp/error-sesion.json'), internals.json);
            internals.fesEntry(fes);
            internals.ajax(fes, 'generarConsulta', 'R').reply(200, internals.fixture('mcmp/generarConsulta.json'), internals.json);
            internals.ajax(fes, 'estimarResultados', 'R').reply(200, internals.fixture('mcmp/estimarResultados.json'), internals.json);
            internals.ajax(fes, 'listaResultados', 'R').reply(200, internals.fixture('mcmp/listaResultados.json'), internals.json);
            fes.get('/mcmp/jsp/descargarComprobantes.do').query(true).reply(
                200,
                internals.bytes('mcmp/comprobantes_consulta_csv_recibidos_184522731_20123456786_20251215-1032.zip'),
                { 'content-type': 'application/zip' }
            );
            expect(await session.taxpayer(internals.entity).invoices('received', range)).to.have.length(4);
            expect(nock.pendingMocks()).to.deep.equal([]);
        });
    });

    describe('where public sources disagree (Mis Comprobantes)', () => {

        const range = { fromDate: '2025-12-01', toDate: '2025-12-15' };

        // One received query for the entity, with the variant each test is about.
        const query = (fes: nock.Scope, variant: { estimate?: string; list?: string }) => {

            internals.ajax(fes, 'generarConsulta', 'R').reply(200, internals.fixture('mcmp/generarConsulta.json'), internals.json);
            internals.ajax(fes, 'estimarResultados', 'R').reply(200, internals.fixture(variant.estimate ?? 'mcmp/estimarResultados.json'), internals.json);
            internals.ajax(fes, 'listaResultados', 'R', { f: 'listaResultados', id: '184522731' }).reply(
                200,
                internals.fixture(variant.list ?? 'mcmp/listaResultados.json'),
                internals.json
            );
            fes.get('/mcmp/jsp/descargarComprobantes.do').query({ id: '184522731', tc: 'R', tf: 'csv' }).reply(
                200,
                internals.bytes('mcmp/comprobantes_consulta_csv_recibidos_184522731_20123456786_20251215-1032.zip'),
                { 'content-type': 'application/zip' }
            );
        };

        it('estimarResultados is required by one client and skipped by others: asked, and an answer it cannot read does not stop the query', async () => {

            const { session, fes } = await internals.fesSession(clock);
            fes.post('/mcmp/jsp/setearContribuyente.do', { idContribuyente: '0' }).reply(200, internals.fixture('mcmp/menu-entidad.html'), internals.html);
            query(fes, { estimate: 'mcmp/estimarResultados-error.json' });
            expect(await session.taxpayer(internals.entity).invoices('received', range)).to.have.length(4);
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });

        it('the taxpayer is chosen by posting the page\'s form, or by a GET with the index when the POST answers no taxpayer\'s page', async () => {

            const { session, fes } = await internals.fesSession(clock);
            fes.post('/mcmp/jsp/setearContribuyente.do', { idContribuyente: '0' }).reply(200, internals.fixture('mcmp/seleccionaEmpresa.html'), internals.html)
                .get('/mcmp/jsp/setearContribuyente.do').query({ idContribuyente: '0' }).reply(
                    200,
                    internals.fixture('mcmp/menu-entidad.html'),
                    internals.html
                );
            query(fes, {});
            expect(await session.taxpayer(internals.entity).invoices('received', range)).to.have.length(4);
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });

        it('listaResultados rows (US decimals, dd/mm/yyyy, server-side paging offered) are not read: the CSV is, and its count must match', async () => {

            const { session, fes } = await internals.fesSession(clock);
            fes.post('/mcmp/jsp/setearContribuyente.do', { idContribuyente: '0' }).reply(200, internals.fixture('mcmp/menu-entidad.html'), internals.html);
            query(fes, { list: 'mcmp/listaResultados-filas.json' });
            const rows = await session.taxpayer(internals.entity).invoices('received', range);
            expect(rows).to.have.length(4);
            expect(rows.map((row) => row.importeOriginal)).to.not.include(1009999.98);
            expect(rows[0]).to.deep.include({ fecha: '2025-12-01', importeOriginal: 12796.56 });
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });
    });

    describe('CSV generations', () => {

        it('tells the three generations apart by the header and reads each to the value', () => {

            const gen1 = internals.fixture('mcmp/comprobantes-recibidos-gen1.csv');
            const gen2 = internals.fixture('mcmp/comprobantes-recibidos-gen2.csv');
            const gen3 = internals.fixture('mcmp/comprobantes-recibidos-gen3.csv');
            expect(parseInvoicesCsv(gen3, 'received')).to.not.be.empty;
            const [a1, c1] = parseInvoicesCsv(gen1, 'received');
            expect(a1).to.deep.include({
                fecha: '2023-05-02',
                tipo: '1',
                impNetoGravado: 12396.69,
                iva: 2603.31,
                otrosTributos: null,
                importeOriginal: 15000,
                monedaOriginal: 'PES'
            });
            expect(c1).to.deep.include({ tipo: '11', impNetoGravado: null, importeOriginal: 5000 });
            const [a2, b2, dollars] = parseInvoicesCsv(gen2, 'received');
            expect(a2).to.deep.include({ fecha: '2024-09-02', otrosTributos: 150.25, importeOriginal: 15150.25, monedaOriginal: 'PES' });
            expect(b2).to.deep.include({ tipo: '6', iva: null, importeOriginal: 48500.5 });
            expect(dollars).to.deep.include({ monedaOriginal: 'DOL', tipoCambio: 1050.5, importe: 127110.5 });
            const issued = parseInvoicesCsv(internals.fixture('mcmp/comprobantes-emitidos-gen3.csv'), 'issued');
            expect(
                issued.map((row) => [row.tipo, row.counterpart.tipoDocumento, row.counterpart.numeroDocumento, row.iva, row.importeOriginal])
            ).to.deep.equal([['11', '99', '0', null, 15000], ['11', '80', '30500010912', null, 82000.5]]);
        });
    });

    describe('Sistema de Cuentas Tributarias', () => {

        // The portal's system cuenta_corriente_contrib (not 'ctacte'), entered with token/sign on
        // /contribuyente/externo; the selector's page inside the iframe homeContribuyente.
        const enter = (selectorPage: string) => {

            const { token, sign } = internals.authorization();
            nock(internals.portal).get(`/portal/api/servicios/${internals.person}/servicio/cuenta_corriente_contrib/autorizacion`).reply(200, internals.fixture('portal/autorizacion.json'), internals.json);
            return nock(internals.ctacte)
                .post('/contribuyente/externo', { token, sign }).reply(302, '', {
                    location: '/contribuyente/',
                    'set-cookie': 'JSESSIONID=ct-1; Path=/contribuyente; Secure'
                })
                .get('/contribuyente/').reply(200, internals.fixture('sct/contribuyente.html'), internals.html)
                .get('/contribuyente/app/homeContribuyente.html').query({ ts: '1763640000' }).reply(200, internals.fixture(selectorPage), internals.html);
        };

        const choose = (ctacte: nock.Scope, index: string, answer: string) => ctacte
            .post('/contribuyente/app', {
                formids: '$PropertySelection',
                service: 'direct/1/HomeContribuyente/$Form',
                sp: 'S0',
                submitmode: '',
                submitname: '',
                $PropertySelection: index
            })
            .matchHeader('cookie', /JSESSIONID=ct-1/)
            .reply(200, internals.fixture(answer), internals.html);

        const methods = (ctacte: nock.Scope, cuit: string, files: [string, string, string], order: string[]) => {

            const calls = [
                ['getDeudas', [Number(cuit), null], files[0]],
                ['getVencimientos', [Number(cuit)], files[1]],
                ['getFaltasPresentacion', [Number(cuit)], files[2]]
            ] as const;
            for (const [method, args, file] of calls) {
                ctacte.get('/contribuyente/rest-access/service').query((query) => {

                    const request = JSON.parse(String(query.request)) as { serviceName: string; methodName: string; arguments: unknown[] };
                    return request.serviceName === 'afip.dit.sct.homeContribuyenteView.services.HomeContribuyenteViewService' && request.methodName === method && JSON.stringify(
                        request.arguments
                    ) === JSON.stringify(args);
                }).reply(() => {

                    order.push(method);
                    return [200, internals.fixture(file), internals.json];
                });
            }
        };

        it('opens on the taxpayer chosen last: chooses the CUIT asked for by its label (values are indices), checks it, then calls the three methods one after another', async () => {

            const session = await internals.session(clock);
            const ctacte = enter('sct/homeContribuyente.html');                 // opens on the entity
            choose(ctacte, '0', 'sct/homeContribuyente-persona.html');
            const order: string[] = [];
            methods(ctacte, internals.person, ['sct/getDeudas.json', 'sct/getVencimientos.json', 'sct/getFaltasPresentacion.json'], order);

            const sct = await session.taxpayer(internals.person).sct();
            expect(nock.pendingMocks()).to.deep.equal([]);
            expect(order).to.deep.equal(['getDeudas', 'getVencimientos', 'getFaltasPresentacion']);
            // Debts: *View fields, as ARCA writes them; a list.
            expect(sct.deuda).to.deep.equal([
                {
                    establecimiento: '',
                    impuesto: '30 - IVA',
                    concepto: '19 - Obligación mensual/anual',
                    subconcepto: '19 - Capital',
                    periodo: '202405',
                    antCuota: '0',
                    vencimiento: '2024-06-18T00:00:00.000Z',
                    saldo: 125430.5,
                    intResarcitorios: 18230.12,
                    intPunitorios: 0
                },
                {
                    establecimiento: '',
                    impuesto: '10 - GANANCIAS SOCIEDADES',
                    concepto: '19 - Obligación mensual/anual',
                    subconcepto: '51 - Intereses resarcitorios',
                    periodo: '202500',
                    antCuota: '3',
                    vencimiento: null,
                    saldo: 4500,
                    intResarcitorios: 120.5,
                    intPunitorios: 0
                }
            ]);
            // Due dates: desc* and tipoOperacion, one item as an object, "YYYY-MM-DD 00:00:00".
            expect(sct.vencimientos).to.deep.equal([{
                impuesto: 'IVA',
                concepto: 'Obligación mensual/anual',
                subconcepto: '',
                periodo: '202609',
                antCuota: '0',
                vencimiento: '2026-10-20T00:00:00.000Z',
                detalle: 'Presentación y pago'
            }]);
            // Missing returns: numeric codes with their descriptions, a 4-digit (annual) period.
            expect(sct.ddjj).to.deep.equal([
                {
                    establecimiento: '',
                    impuesto: '103 - GANANCIAS SOCIEDADES - DDJJ',
                    concepto: '984 - Declaración jurada anual',
                    subconcepto: '',
                    periodo: '202400',
                    antCuota: '',
                    vencimiento: '2025-05-15T00:00:00.000Z'
                },
                {
                    establecimiento: '',
                    impuesto: '30 - IVA',
                    concepto: '19 - Declaración jurada mensual',
                    subconcepto: '',
                    periodo: '202508',
                    antCuota: '',
                    vencimiento: '2025-09-18T00:00:00.000Z'
                }
            ]);
            await session.close();
        });

        it('chooses the CUIT even when the page already shows it, and refuses to read when the selector does not stay on it', async () => {

            const session = await internals.session(clock);
            const ctacte = enter('sct/homeContribuyente.html');                 // already on the entity
            choose(ctacte, '1', 'sct/homeContribuyente-entidad.html');
            const order: string[] = [];
            methods(ctacte, internals.entity, ['sct/vacio.json', 'sct/vacio.json', 'sct/vacio.json'], order);
            expect(await session.taxpayer(internals.entity).sct()).to.deep.equal({ deuda: [], vencimientos: [], ddjj: [] });
            expect(order).to.have.length(3);

            choose(ctacte, '0', 'sct/homeContribuyente-entidad.html');          // stays on the entity
            expect((await internals.failureOf(session.taxpayer(internals.person).sct())).kind).to.equal('unexpected_page');
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });

        it('a key of one taxpayer gets no selector: reads its own CUIT, and no other', async () => {

            const session = await internals.session(clock);
            const ctacte = enter('sct/homeContribuyente-unico.html');
            const order: string[] = [];
            methods(ctacte, internals.person, ['sct/vacio.json', 'sct/getVencimientos.json', 'sct/vacio.json'], order);
            const sct = await session.taxpayer(internals.person).sct();
            expect(sct.vencimientos).to.have.length(1);
            expect(order).to.deep.equal(['getDeudas', 'getVencimientos', 'getFaltasPresentacion']);

            // Another CUIT: the page is read again once (a representation may be new), then refused.
            enter('sct/homeContribuyente-unico.html');
            expect((await internals.failureOf(session.taxpayer(internals.entity).sct())).kind).to.equal('represented_unavailable');
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });
    });

    describe('CCMA (ccam)', () => {

        const enter = () => {

            const { token, sign } = internals.authorization();
            nock(internals.portal).get(`/portal/api/servicios/${internals.person}/servicio/ccam/autorizacion`).reply(200, internals.fixture('portal/autorizacion.json'), internals.json);
            return nock(internals.ccam)
                .post('/tramites_con_clave_fiscal/ccam/procesa.asp', { token, sign }).reply(302, '', {
                    location: 'seleccionaCuit.asp',
                    'set-cookie': 'ASPSESSIONIDQCSRBTQA=KJHGFDSAPOIU; path=/'
                })
                .get('/tramites_con_clave_fiscal/ccam/seleccionaCuit.asp');
        };

        // Selected, calculated (P02 -> P04: the balances), then the sábana (the movements).
        const calculated = (sabana: string) => enter().reply(200, internals.bytes('ccma/seleccionaCuit.asp.html'), internals.latin1)
            .post('/tramites_con_clave_fiscal/ccam/seleccionaCuit.asp', { selectCuit: internals.entity, accion: 's' }).reply(302, '', { location: 'menu.asp' })
            .get('/tramites_con_clave_fiscal/ccam/menu.asp').reply(200, '<html><body>Menú</body></html>', internals.latin1)
            .get('/tramites_con_clave_fiscal/ccam/P02_ctacte.asp').reply(200, internals.bytes('ccma/P02_ctacte.asp.html'), internals.latin1)
            .post('/tramites_con_clave_fiscal/ccam/P02_ctacte.asp', {
                feccalculo: '20/11/2025',
                perdesde2: '01/2023',
                perhasta2: '11/2025',
                calcula: 'S'
            }).reply(200, internals.bytes('ccma/P02_ctacte-calculado.asp.html'), internals.latin1)
            .post('/tramites_con_clave_fiscal/ccam/P04_ctacte.asp', {
                feccalculo: '20/11/2025',
                perdesde2: '01/2023',
                perhasta2: '11/2025'
            }).reply(200, internals.bytes('ccma/P04_ctacte.asp.html'), internals.latin1)
            .get('/tramites_con_clave_fiscal/ccam/ajax/ConsDeuFecSabana.asp').query(
                (query) => query.ingreso === 'sabana' && query.monoAut === 'Todos' && /^\d{2}\/\d{4}$/.test(String(query.perDesde1))
            )
            .matchHeader('cookie', /ASPSESSIONIDQCSRBTQA=KJHGFDSAPOIU/)
            .reply(200, internals.bytes(sabana), internals.latin1);

        it('balances from the P04 totals (not its ledger), movements from the sábana: one signed amount, "Saldo" rows skipped, orden and running saldo derived', async () => {

            const session = await internals.session(clock);
            calculated('ccma/ConsDeuFecSabana.asp.html');
            const { balances, movements } = await session.taxpayer(internals.entity).ccma();
            expect(nock.pendingMocks()).to.deep.equal([]);
            expect(balances).to.deep.equal({ saldoDeudor: 14625.46, saldoAcreedor: -1234 });
            expect(movements).to.not.be.instanceOf(Error);
            expect(
                (movements as CcmaMovement[]).map(
                    (m) => [m.orden, m.periodo, m.impuesto, m.concepto, m.subconcepto, m.descripcion, m.fechaMovimiento.slice(0, 10), m.debe, m.haber, m.saldo]
                )
            ).to.deep.equal([
                [1, '09/2025', '020', 'Obligación mensual', '019', 'Determinación de la obligación mensual', '2025-10-01', 57876, null, -57876],
                [2, '09/2025', '020', 'Pago', '019', 'Pago VEP', '2025-10-18', null, 57876, 0],
                [3, '10/2025', '020', 'Obligación mensual', '019', 'Determinación de la obligación mensual', '2025-11-01', 57876, null, -57876],
                [4, '10/2025', '020', 'Intereses', '051', 'Intereses resarcitorios devengados', '2025-11-05', 2315.04, null, -60191.04]
            ]);
            await session.close();
        });

        it('a sábana that cannot be read is the movements\' failure alone, captured: the balances are still read', async () => {

            const dir = mkdtempSync(join(tmpdir(), 'arcasync-ccma-'));
            try {
                const session = await internals.session(clock, { diagnostics: createDiagnostics({ dir }) });
                calculated('ccma/ConsDeuFecSabana-cambiada.asp.html');
                const { balances, movements } = await session.taxpayer(internals.entity).ccma();
                expect(balances).to.deep.equal({ saldoDeudor: 14625.46, saldoAcreedor: -1234 });
                expect(movements).to.be.instanceOf(Error);
                expect((movements as AuthorityFailure).kind).to.equal('unexpected_page');
                expect(readdirSync(dir).filter((name) => name.includes('ccma'))).to.have.length(1);
                await session.close();
            }
            finally {
                rmSync(dir, { recursive: true, force: true });
            }
        });

        it('a CUIT the selector does not offer has no CCMA: nothing reported, no other CUIT\'s data read', async () => {

            const session = await internals.session(clock);
            enter().reply(200, internals.bytes('ccma/seleccionaCuit-sin-entidad.asp.html'), internals.latin1);
            expect(await session.taxpayer(internals.entity).ccma()).to.deep.equal({ balances: { saldoDeudor: null, saldoAcreedor: null }, movements: [] });
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });
    });

    describe('DFE (e-ventanilla)', () => {

        const enter = () => {

            const { token, sign } = internals.authorization();
            nock(internals.portal).get(`/portal/api/servicios/${internals.person}/servicio/e-ventanilla/autorizacion`).reply(200, internals.fixture('portal/autorizacion.json'), internals.json);
            return nock(internals.ve)
                .post('/login', { token, sign }).reply(302, '', { location: '/index.html', 'set-cookie': 'JSESSIONID=ve-1; Path=/; Secure' })
                .get('/index.html').reply(200, '<html><body><div id="app"></div></body></html>', internals.html);
        };

        it('lists with YYYY-MM-DD dates, reads epoch-ms dates and estado 1/2, and never opens a detail', async () => {

            const session = await internals.session(clock);
            enter().get('/api/v1/communications').query({
                cuit: internals.person,
                fechaPublicacionSince: '2023-12-16',
                fechaPublicacionTo: '2025-12-15'
            }).reply(200, internals.fixture('dfe/communications.json'), internals.json);
            const list = await session.taxpayer(internals.person).notifications();
            expect(list).to.deep.equal([
                {
                    arcaId: '987650001',
                    tipo: 'SIRAD',
                    asunto: 'Intimación de pago',
                    organismo: 'ARCA',
                    fechaRecepcion: '2025-11-12T13:00:00.000Z',
                    fechaNotificacion: null,
                    readAtAuthority: false
                },
                {
                    arcaId: '987650002',
                    tipo: 'SIRAD',
                    asunto: 'Comunicación de vencimientos',
                    organismo: 'ARCA',
                    fechaRecepcion: '2025-10-13T13:00:00.000Z',
                    fechaNotificacion: '2025-10-14T13:00:00.000Z',
                    readAtAuthority: true
                }
            ]);
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });

        it('captures an answer without communications with the names of its fields masked, in capitals or not', async () => {

            const dir = mkdtempSync(join(tmpdir(), 'arcasync-diag-'));
            try {
                const session = await internals.session(clock, { diagnostics: createDiagnostics({ dir }) });
                enter().get('/api/v1/communications').query(true).reply(200, internals.fixture('dfe/sin-comunicaciones.json'), internals.json);
                expect((await internals.failureOf(session.taxpayer(internals.person).notifications())).kind).to.equal('unexpected_page');
                await session.close();
                const text = readFileSync(join(dir, readdirSync(dir)[0]!), 'utf8');
                for (const personal of ['María', 'Laura', 'González', 'Panadería', 'Espiga']) {
                    expect(text, personal).to.not.include(personal);
                }

                expect(text).to.include('"mensaje": "El servicio no está disponible"')
                    .and.include('"destinatario": {"cuit": 20123456786, "nombre": "XXXXX XXXXX", "apellido": "XXXXXXXX", "razonSocial": null, "denominacion": "XXXXXXXXX XX XXXXXX"}');
            }
            finally {
                rmSync(dir, { recursive: true, force: true });
            }
        });

        it('asks for the next page when the answer says there is more, and fails rather than cut the list short', async () => {

            const session = await internals.session(clock);
            enter()
                .get('/api/v1/communications').query((query) => query.pagina === undefined).reply(
                    200,
                    internals.fixture('dfe/communications-pagina1.json'),
                    internals.json
                )
                .get('/api/v1/communications').query((query) => query.pagina === '2').reply(
                    200,
                    internals.fixture('dfe/communications-pagina2.json'),
                    internals.json
                );
            expect((await session.taxpayer(internals.person).notifications()).map((item) => item.arcaId)).to.deep.equal(['987650001', '987650002']);

            nock(internals.ve)
                .get('/api/v1/communications').query(true).times(2).reply(200, internals.fixture('dfe/communications-pagina1.json'), internals.json);
            expect((await internals.failureOf(session.taxpayer(internals.person).notifications())).kind).to.equal('unexpected_page');
            await session.close();
        });
    });

    describe('registry', () => {

        // tipoCuitImpuestos says monotributo; the dashboard (admin_mono) is entered on default.aspx.
        const enter = () => {

            const { token, sign } = internals.authorization();
            nock(internals.portal)
                .get(`/portal/api/cuit/${internals.person}/tipoCuitImpuestos`).reply(200, internals.fixture('portal/tipoCuitImpuestos-monotributo.json'), internals.json)
                .get(`/portal/api/servicios/${internals.person}/servicio/admin_mono/autorizacion`).reply(200, internals.fixture('portal/autorizacion.json'), internals.json);
            return nock(internals.mono)
                .post('/app/default.aspx', { token, sign }).reply(302, '', {
                    location: '/app/SelecRepresentado.aspx',
                    'set-cookie': 'ASP.NET_SessionId=m1; path=/'
                });
        };

        // A key of one taxpayer: sent straight to Inicio.aspx.
        const straight = (page = 'monotributo/Inicio.html') => enter()
            .get('/app/SelecRepresentado.aspx').reply(302, '', { location: '/app/Inicio.aspx' })
            .get('/app/Inicio.aspx').reply(200, internals.fixture(page), internals.html);

        // ARCA's meter, in the same sessions: the dashboard's page method, then the portal's
        // deberecategorizar (docs/authority.md, ARCA's meter).
        const meter = (billing = 'monotributo/CalcularFacturacion.json', recategorization = 'portal/deberecategorizar.json') => {

            nock(internals.mono, { reqheaders: { 'content-type': 'application/json; charset=UTF-8', 'x-requested-with': 'XMLHttpRequest', cookie: /ASP\.NET_SessionId=m1/ } })
                .post('/app/Inicio.aspx/CalcularFacturacion', {})
                .reply(200, internals.fixture(billing), { 'content-type': 'application/json; charset=utf-8' });
            nock(internals.portal)
                .get(`/portal/api/monotributista/${internals.person}/deberecategorizar`)
                .reply(200, internals.fixture(recategorization), internals.json);
        };

        const meterRead = {
            facturado: 8523417.35,
            tope: 32531632.63,
            periodo: '01/12/2024 al 30/11/2025',
            debeRecategorizar: true,
            recategorizacionDesde: '2026-01-15',
            recategorizacionHasta: '2026-02-05'
        };

        const grid = () => enter()
            .get('/app/SelecRepresentado.aspx').reply(200, internals.fixture('monotributo/SelecRepresentado.html'), internals.html)
            .post('/app/SelecRepresentado.aspx', {
                __EVENTTARGET: '', __EVENTARGUMENT: '', __VIEWSTATE: '/wEPDwULLTE0NjA2NDQ4NjdkZA==', __VIEWSTATEGENERATOR: '5C8E4F2A', __EVENTVALIDATION: '/wEdAAOtk1rV0qZ5',
                'ctl00$ContentPlaceHolder1$hID': internals.person, 'ctl00$ContentPlaceHolder1$btnAcceder': 'Acceder'
            })
            .matchHeader('cookie', /ASP\.NET_SessionId=m1/)
            .reply(302, '', { location: '/app/Inicio.aspx' });

        it('a key of one taxpayer is sent straight to Inicio.aspx: classifies from tipoCuitImpuestos and reads "Categoría X"', async () => {

            const session = await internals.session(clock);
            straight();
            meter();
            expect(await session.taxpayer(internals.person).registry()).to.deep.equal({ monotributista: true, autonomo: false, categoria: 'F', meter: meterRead });

            nock(internals.portal).get(`/portal/api/cuit/${internals.person}/tipoCuitImpuestos`).reply(200, internals.fixture('portal/tipoCuitImpuestos-autonomo.json'), internals.json);
            expect(await session.taxpayer(internals.person).registry()).to.deep.equal({ monotributista: false, autonomo: true, categoria: null });
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });

        it('a key that reaches several taxpayers gets the SelecRepresentado grid: answered for the CUIT with the page\'s ASP.NET fields, hidCUITContribuyente checked', async () => {

            const session = await internals.session(clock);
            grid().get('/app/Inicio.aspx').reply(200, internals.fixture('monotributo/Inicio.html'), internals.html);
            meter();
            expect(await session.taxpayer(internals.person).registry()).to.deep.equal({ monotributista: true, autonomo: false, categoria: 'F', meter: meterRead });
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });

        // Where sources disagree: `d` as an object or as a JSON string; the portal's fields at the
        // top or under `data`, dates dd/mm/yyyy or ISO. A 0 is not trusted (public code).
        it('reads ARCA\'s meter in either shape, leaving a 0 unknown', async () => {

            const session = await internals.session(clock);
            straight();
            meter('monotributo/CalcularFacturacion-cero.json', 'portal/deberecategorizar-data.json');
            expect((await session.taxpayer(internals.person).registry()).meter).to.deep.equal({
                facturado: null,
                tope: 32531632.63,
                periodo: null,
                debeRecategorizar: false,
                recategorizacionDesde: '2026-01-15',
                recategorizacionHasta: '2026-02-05'
            });
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });

        it('a meter that cannot be read is its failure: the classification and category are kept', async () => {

            const session = await internals.session(clock);
            straight();
            nock(internals.mono).post('/app/Inicio.aspx/CalcularFacturacion').reply(500, '<html><body>Server Error in \'/app\' Application.</body></html>', internals.html);
            const { meter: failed, ...classification } = await session.taxpayer(internals.person).registry();
            expect(classification).to.deep.equal({ monotributista: true, autonomo: false, categoria: 'F' });
            expect((failed as AuthorityFailure).kind).to.equal('unavailable');
            expect(nock.pendingMocks()).to.deep.equal([]);

            // A portal answer without the fields: an unknown page, failing the meter alone.
            straight();
            nock(internals.mono).post('/app/Inicio.aspx/CalcularFacturacion').reply(200, internals.fixture('monotributo/CalcularFacturacion.json'), { 'content-type': 'application/json; charset=utf-8' });
            nock(internals.portal).get(`/portal/api/monotributista/${internals.person}/deberecategorizar`).reply(200, { error: 'no encontrado' }, internals.json);
            const second = await session.taxpayer(internals.person).registry();
            expect(second.categoria).to.equal('F');
            expect((second.meter as AuthorityFailure).kind).to.equal('unexpected_page');
            await session.close();
        });

        // docs/authority.md, Captured pages: names in any case where the page says they are names.
        it('captures a dashboard without the category with its structure, every name and address on it masked, in capitals or not', async () => {

            const dir = mkdtempSync(join(tmpdir(), 'arcasync-diag-'));
            try {
                const session = await internals.session(clock, { diagnostics: createDiagnostics({ dir }) });
                straight('monotributo/Inicio-sin-categoria.html');
                expect(await session.taxpayer(internals.person).registry()).to.deep.equal({ monotributista: true, autonomo: false, categoria: null });
                await session.close();
                const files = readdirSync(dir);
                expect(files).to.have.length(1);
                const text = readFileSync(join(dir, files[0]!), 'utf8');
                for (const personal of ['María', 'Laura', 'González', 'Panadería', 'Espiga', 'Oro', 'Pérez', 'Juan', 'Ignacio', 'Corrientes', 'maria.gonzalez']) {
                    expect(text, personal).to.not.include(personal);
                }

                expect(text).to.include('sistema: registry')
                    .and.include('<span>Bienvenida, XXXXX XXXXX XXXXXXXX</span>')
                    .and.include('<h2>Datos del contribuyente</h2>')
                    .and.include('<span id="ContentPlaceHolder1_lblRazonSocial">XXXXXXXXX XX XXXXXX</span>')
                    .and.include('id="ContentPlaceHolder1_txtNombreFantasia" value="XX XXXXXX XX XXX"')
                    .and.include('<tr><td>Apellido y nombre:</td><td>XXXXXXXX, XXXXX XXXXX</td></tr>')
                    .and.include('<tr><td>Domicilio fiscal:</td><td>XX. XXXXXXXXXX 0000 XXXX 0, XXXX</td></tr>')
                    .and.include('<tr><th>CUIT</th><th>Apellido y nombre / Razón social</th><th>Vínculo</th></tr>')
                    .and.include('<tr><td>20-27654321-3</td><td><a href="#">XXXXX XXXX XXXXXXX</a></td><td>Administrador</td></tr>')
                    .and.include('<strong>Estamos recategorizando tu actividad: volvé más tarde.</strong>');
            }
            finally {
                rmSync(dir, { recursive: true, force: true });
            }
        });

        it('never reads a category from another taxpayer\'s dashboard', async () => {

            const session = await internals.session(clock);
            grid().get('/app/Inicio.aspx').reply(200, internals.fixture('monotributo/Inicio-otro.html'), internals.html);
            expect((await internals.failureOf(session.taxpayer(internals.person).registry())).kind).to.equal('unexpected_page');
            expect(nock.pendingMocks()).to.deep.equal([]);
            await session.close();
        });
    });
});
