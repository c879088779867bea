import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { clientPatchSchemas, newClientSchemas } from '../../core/contract/client-body.js';
import { cuitPathSchema, monthRangeSchemas, periodPageSchemas, readParameterSchemas, toolArgumentsSchema } from '../../core/contract/read-parameters.js';
import { parseClientPatch, parseNewClient } from '../../core/contract/client-body.js';
import { messages } from '../../core/domain/messages.js';
import { schema } from '../../adapters/knex/schema.js';
import { jsonSchemaOf } from '../../servers/contract/json-schema.js';
import { testDatabases } from '../support/databases.js';
import type { SeededUser } from '../support/fixtures.js';
import { seedAccount } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';
import { httpMessages } from '../../servers/http/messages.js';

// One contract (core/contract/, joi): what the OpenAPI document and the MCP tools publish is
// generated from the schemas the core validates with, and the published body limits are the
// sizes of the columns that store them.

type Json = Record<string, any>;

const [database] = testDatabases();

describe('the joi contract, as the API and the MCP tools publish it', () => {

    let server: TestServer;
    let owner: SeededUser;
    let document: Json;

    before(async () => {

        server = await startTestServer(database!);
        owner = await seedAccount(server.app.ports, { writing: true });
        document = (await server.request('/openapi.json')).body;
    });

    after(async () => {

        await server.stop();
    });

    it('publishes every OpenAPI parameter as the joi schema the core parses it with', () => {

        let seen = 0;
        for (const [path, item] of Object.entries(document.paths as Json)) {
            for (const operation of Object.values(item as Json) as Json[]) {
                for (const parameter of operation.parameters ?? []) {
                    const periods = path.endsWith('/ccma/movimientos') && (parameter.name === 'limit' || parameter.name === 'offset');
                    // The IVA position reads `desde` and `hasta` as months.
                    const months = path.endsWith('/iva') && (parameter.name === 'desde' || parameter.name === 'hasta');
                    const contract = parameter.in === 'path' ? cuitPathSchema : periods ? periodPageSchemas[parameter.name as 'limit']
                        : months ? monthRangeSchemas[parameter.name as 'desde'] : readParameterSchemas[parameter.name as keyof typeof readParameterSchemas];
                    const { description, examples, ...schema } = jsonSchemaOf(contract);
                    expect(parameter.schema, `${path} ${parameter.name}`).to.deep.equal(schema);
                    expect(parameter.description, `${path} ${parameter.name}`).to.equal(description);
                    expect(parameter.example, `${path} ${parameter.name}`).to.deep.equal((examples as unknown[] | undefined)?.[0]);
                    seen += 1;
                }
            }
        }

        expect(seen).to.be.greaterThan(20);
        expect(
            document.paths['/v1/cuits'].get.parameters.find((parameter: Json) => parameter.name === 'limit').schema
        ).to.include({ minimum: 1, maximum: 100, default: 50 });
    });

    it('publishes the request bodies as the joi schemas the core validates them with', () => {

        const { schemas } = document.components;
        expect(schemas.NewPhysicalPerson).to.deep.equal(jsonSchemaOf(newClientSchemas['persona-fisica']));
        expect(schemas.NewLegalEntity).to.deep.equal(jsonSchemaOf(newClientSchemas['persona-juridica']));
        expect(schemas.CuitPatch).to.deep.equal(jsonSchemaOf(clientPatchSchemas.unknown));
        expect(schemas.NewPhysicalPerson.properties.nombre).to.include({ type: 'string', minLength: 1, maxLength: 200 });
        expect(schemas.NewLegalEntity.properties.razon_social).to.include({ maxLength: 255 });
        expect(schemas.CuitPatch.properties.email).to.include({ maxLength: 254, format: 'email' });
        expect(schemas.CuitPatch.properties.telefono).to.include({ maxLength: 60 });
    });

    it('gives each MCP tool the input schema generated from the same joi schemas', async () => {

        const client = new Client({ name: 'prueba', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${owner.token}` } } }));
        try {
            const { tools } = await client.listTools();
            const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema]));
            expect(byName.listar_cuits).to.deep.equal(
                jsonSchemaOf(toolArgumentsSchema([], ['limit', 'offset', 'etiquetas', 'monotributista', 'autonomo', 'categoria']))
            );
            expect(byName.listar_mis_comprobantes).to.deep.equal(
                jsonSchemaOf(toolArgumentsSchema(['tipo'], ['cuit', 'limit', 'offset', 'from_date', 'to_date']))
            );
            expect(byName.consultar_sct).to.deep.equal(jsonSchemaOf(toolArgumentsSchema([], ['cuit'])));
            expect(byName.consultar_ccma).to.deep.equal(jsonSchemaOf(toolArgumentsSchema(['consulta'], ['cuit', 'limit', 'offset'], 'periods')));
            expect(byName.listar_dfe).to.deep.equal(jsonSchemaOf(toolArgumentsSchema([], ['cuit', 'limit', 'offset'])));
            // The same limits the REST parameters publish.
            expect(byName.listar_dfe!.properties!.limit).to.deep.include({ minimum: 1, maximum: 100 });
            expect(byName.listar_mis_comprobantes!.required).to.deep.equal(['tipo', 'cuit']);
        }
        finally {
            await client.close();
        }
    });

    it('offers body examples the API accepts, one per tipo and one for PATCH', () => {

        const post = document.paths['/v1/cuits'].post.requestBody.content['application/json'];
        const examples = Object.values(post.examples as Json).map((example) => example.value);
        expect(examples.map((example) => example.tipo)).to.have.members(['persona-fisica', 'persona-juridica']);
        for (const example of examples) {
            expect(parseNewClient(example).failures, JSON.stringify(example)).to.deep.equal([]);
        }

        const patch = document.paths['/v1/cuits/{cuit}'].patch.requestBody.content['application/json'];
        const edits = Object.values(patch.examples as Json).map((example) => example.value);
        expect(edits).to.not.be.empty;
        for (const edit of edits) {
            expect(parseClientPatch(edit, null).failures, JSON.stringify(edit)).to.deep.equal([]);
        }
    });

    it('shows each error status with the Spanish message the API answers, and no tag filter in the list\'s Try it out', () => {

        const fixed: Record<string, string> = {
            401: messages.unauthenticated,
            404: messages.notFound,
            415: httpMessages.unsupportedMediaType,
            429: messages.rateLimited,
            500: messages.internal,
            503: messages.unavailable
        };
        for (const [path, item] of Object.entries(document.paths as Json)) {
            for (const [method, operation] of Object.entries(item as Json) as [string, Json][]) {
                for (const [status, response] of Object.entries(operation.responses as Json)) {
                    const media = (response as Json).content?.['application/json'];
                    if (Number(status) < 400 || !media) {
                        continue;
                    }

                    const shown = Object.values(media.examples as Json).map((example) => example.value.error as string);
                    expect(shown, `${method} ${path} ${status}`).to.not.be.empty;
                    expect(shown.every((message) => message !== 'string' && /[a-záéíóúñ]{3} /.test(message)), `${method} ${path} ${status}`).to.equal(true);
                    // Storing a clave fiscal is also unavailable while its identity secret cannot be read.
                    const storesKey = status === '503' && path === '/v1/cuits' ? method === 'post' : status === '503' && method === 'patch';
                    if (fixed[status]) {
                        const expected = storesKey ? [fixed[status], messages.clientWrite.keyIdentityUnavailable] : [fixed[status]];
                        expect(shown, `${method} ${path} ${status}`).to.deep.equal(expected);
                    }
                }
            }
        }

        expect(
            document.paths['/v1/cuits'].post.responses[409].content['application/json'].examples['cuit-registrado'].value.error
        ).to.equal(messages.cuitTaken);
        expect(
            document.paths['/v1/cuits/{cuit}'].delete.responses[409].content['application/json'].examples.representante.value.error
        ).to.equal(messages.clientWrite.representsEntities);
        const etiquetas = document.paths['/v1/cuits'].get.parameters.find((parameter: Json) => parameter.name === 'etiquetas');
        expect(etiquetas).to.not.have.property('example');
    });
});

// The sizes are read from the one current schema (adapters/knex/schema.ts), which
// test/schema-integrity.test.ts holds to what the migrations build on each database.
describe('body limits and column sizes', () => {

    it('publishes for every stored text of a body the size of its column', () => {

        const columns = schema.clients.columns;
        const person = jsonSchemaOf(newClientSchemas['persona-fisica']).properties as Json;
        const entity = jsonSchemaOf(newClientSchemas['persona-juridica']).properties as Json;
        const limits = {
            nombre: person.nombre.maxLength,
            apellido: person.apellido.maxLength,
            razon_social: entity.razon_social.maxLength,
            email: person.email.maxLength,
            telefono: person.telefono.maxLength
        };

        for (const [column, limit] of Object.entries(limits)) {
            expect(columns[column as keyof typeof limits].size, column).to.equal(limit);
        }

        // The CUIT is stored as its 11 digits; the key is sealed first, into a text column.
        expect(columns.cuit.size).to.equal(11);
        expect(columns.clave_arca.type).to.equal('text');
    });
});
