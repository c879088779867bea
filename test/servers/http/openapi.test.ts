import { expect } from 'chai';
import { contractFromDocument } from '../../support/contract.js';
import { testDatabases } from '../../support/databases.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';

// docs/api.md: the published OpenAPI 3.1 document, and the contract checker that holds every
// response of the suite to it.

const [database] = testDatabases();

describe('GET /openapi.json and the response contract', () => {

    let server: TestServer;
    let document: Record<string, any>;   // the published JSON document

    before(async () => {

        server = await startTestServer(database!);
        document = (await server.request('/openapi.json')).body;
    });

    after(async () => {

        await server.stop();
    });

    it('publishes OpenAPI 3.1.0, document version 1.0.0, with the bearer scheme', () => {

        expect(document.openapi).to.equal('3.1.0');
        expect(document.info.version).to.equal('1.0.0');
        expect(document.components.securitySchemes.bearerAuth).to.include({ type: 'http', scheme: 'bearer' });
        // How a user gets one (issue 38): staff create it with the CLI; the panel's tokens page comes later.
        expect(document.components.securitySchemes.bearerAuth.description).to.contain('`arcasync token create --user ID`')
            .and.contain('se muestra una sola vez').and.contain('La página de tokens del panel').and.contain('llega más adelante');
        // Who creates tokens today (issue 37, item 10): staff, with the CLI; not yet the user.
        expect(document.info.description).to.contain('los crea el equipo de arcasync para un usuario (`arcasync token create --user ID`)');
        expect(document.info.description).to.not.contain('lo genera el usuario');
        expect(document.paths['/healthcheck'].get.security).to.deep.equal([]);
    });

    it('describes every read endpoint with its statuses, and the 429 headers', () => {

        const reads = {
            '/v1/cuits': [200, 400, 401, 403, 429, 500, 503],
            '/v1/cuits/{cuit}/mis-comprobantes/emitidos': [200, 400, 401, 403, 404, 429, 500, 503],
            '/v1/cuits/{cuit}/mis-comprobantes/recibidos': [200, 400, 401, 403, 404, 429, 500, 503],
            '/v1/cuits/{cuit}/sct': [200, 400, 401, 403, 404, 429, 500, 503],
            '/v1/cuits/{cuit}/ccma': [200, 400, 401, 403, 404, 429, 500, 503],
            '/v1/cuits/{cuit}/ccma/movimientos': [200, 400, 401, 403, 404, 429, 500, 503],
            '/v1/cuits/{cuit}/dfe': [200, 400, 401, 403, 404, 429, 500, 503],
            '/v1/tags': [200, 400, 401, 403, 429, 500, 503]
        };

        for (const [path, statuses] of Object.entries(reads)) {
            const responses = document.paths[path].get.responses;
            expect(Object.keys(responses).map(Number), path).to.deep.equal(statuses);
            expect(Object.keys(responses[429].headers), path).to.deep.equal(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
        }
    });

    it('describes the write side: the two creation shapes as a oneOf by tipo, the merge patch, the 204', () => {

        const post = document.paths['/v1/cuits'].post;
        expect(Object.keys(post.responses).map(Number)).to.deep.equal([201, 400, 401, 403, 409, 415, 429, 500, 503]);
        const body = post.requestBody.content['application/json'].schema;
        expect(body.oneOf).to.deep.equal([{ $ref: '#/components/schemas/NewPhysicalPerson' }, { $ref: '#/components/schemas/NewLegalEntity' }]);
        expect(body.discriminator.propertyName).to.equal('tipo');
        expect(document.components.schemas.NewPhysicalPerson.required).to.deep.equal(['tipo', 'cuit', 'nombre', 'apellido', 'clave_arca']);
        expect(document.components.schemas.NewLegalEntity.properties).to.not.have.property('clave_arca');

        const patch = document.paths['/v1/cuits/{cuit}'].patch;
        expect(Object.keys(patch.responses).map(Number)).to.deep.equal([200, 400, 401, 403, 404, 415, 429, 500, 503]);
        expect(patch.requestBody.content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/CuitPatch' });
        expect(patch.parameters[0]).to.include({ name: 'cuit', in: 'path', required: true });

        const remove = document.paths['/v1/cuits/{cuit}'].delete;
        expect(Object.keys(remove.responses).map(Number)).to.deep.equal([204, 400, 401, 403, 404, 409, 429, 500, 503]);
        expect(remove.responses[204]).to.not.have.property('content');
    });

    it('derives parameters from the validators: limits, the CUIT pattern, repeated etiquetas', () => {

        const parameters = document.paths['/v1/cuits'].get.parameters;
        const byName = Object.fromEntries(parameters.map((parameter: { name: string }) => [parameter.name, parameter]));
        expect(byName.limit.schema).to.include({ type: 'integer', minimum: 1, maximum: 100 });
        expect(byName.offset.schema).to.include({ type: 'integer', minimum: 0 });
        expect(byName.etiquetas).to.include({ style: 'form', explode: true });
        expect(byName.categoria.schema.enum).to.deep.equal(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K']);

        const sct = document.paths['/v1/cuits/{cuit}/sct'].get.parameters;
        expect(sct).to.have.length(1);
        expect(sct[0]).to.include({ name: 'cuit', in: 'path', required: true });
        expect(new RegExp(sct[0].schema.pattern).test('20-12345678-6')).to.equal(true);
    });

    it('reports a response whose body differs from the document', () => {

        const contract = contractFromDocument(document);
        const good = {
            id: 'x',
            cuit: '20123456786',
            displayCuit: '20-12345678-6',
            tipo: 'persona-fisica',
            nombre: 'A, B',
            email: null,
            telefono: null,
            etiquetas: [],
            monotributista: null,
            autonomo: null,
            categoria: null,
            sistemaRegistralSyncedAt: null
        };
        const usage = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '1780000000' };
        const response = (item: object) => ({
            method: 'GET',
            path: '/v1/cuits',
            status: 200,
            headers: usage,
            contentType: 'application/json; charset=utf-8',
            body: {
                data: [item],
                pagination: { limit: 50, offset: 0, total: 1 },
                filters: { etiquetas: null, monotributista: null, autonomo: null, categoria: null }
            }
        });

        expect(contract.check(response(good))).to.deep.equal([]);
        const { etiquetas: _dropped, ...missing } = good;
        expect(contract.check(response(missing)).join()).to.match(/etiquetas/);
        expect(contract.check(response({ ...good, extra: 1 })).join()).to.match(/additional/);
        expect(contract.check(response({ ...good, monotributista: 'no' })).join()).to.match(/monotributista/);
    });

    it('reports an undocumented status and a 429 without its headers', () => {

        const contract = contractFromDocument(document);
        const error = { error: 'x' };
        expect(contract.check({
            method: 'GET',
            path: '/v1/tags',
            status: 404,
            headers: {},
            contentType: 'application/json',
            body: error
        }).join()).to.match(/estado no descripto/);
        expect(contract.check({
            method: 'GET',
            path: '/v1/tags',
            status: 429,
            headers: { 'retry-after': '3' },
            contentType: 'application/json',
            body: error
        }).join()).to.match(/X-RateLimit-Limit/);
        expect(contract.check({
            method: 'GET',
            path: '/healthcheck',
            status: 200,
            headers: {},
            contentType: 'application/json',
            body: 'OK'
        }).join()).to.match(/tipo de contenido/);
    });

    it('serves the reference page and its assets from the installed package', async () => {

        const page = await server.request('/docs');
        expect(page.status).to.equal(200);
        expect(page.headers.get('content-type')).to.match(/^text\/html/);
        expect(page.text).to.include('/docs/swagger-ui-bundle.js').and.include('/openapi.json');
        const bundle = await server.request('/docs/swagger-ui-bundle.js');
        expect(bundle.status).to.equal(200);
        expect(bundle.text.length).to.be.greaterThan(100_000);
        expect((await server.request('/docs/../package.json')).status).to.equal(404);
    });
});
