import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { messages } from '../../../core/domain/messages.js';
import { invoice } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import { addClient, seedAccount } from '../../support/fixtures.js';
import type { SeededUser } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';

// What an integrator does with /openapi.json: generate a typed TypeScript client
// (openapi-typescript for the types, openapi-fetch for the calls), compile code against it
// under strict settings, and call the API with it. Wrong parameters or paths must not compile.

const internals = {
    dir: join(import.meta.dirname, '..', '..', '..', 'test-artifacts', 'openapi-client'),

    client: `import createClient from 'openapi-fetch';
import type { operations, paths } from './api.js';

// Operations are reachable by readable ids, as generated clients name their methods.
type ListCuitsQuery = NonNullable<operations['listCuits']['parameters']['query']>;
type IssuedInvoice = operations['listIssuedInvoices']['responses'][200]['content']['application/json']['data'][number];

export const run = async (baseUrl: string, token: string) => {

    const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } });
    const query: ListCuitsQuery = { limit: 10, categoria: 'A', etiquetas: ['Mensuales'] };
    const filtered = await client.GET('/v1/cuits', { params: { query } });
    const cuits = await client.GET('/v1/cuits', { params: { query: { limit: 10 } } });
    const issued = await client.GET('/v1/cuits/{cuit}/mis-comprobantes/emitidos', { params: { path: { cuit: '20-12345678-6' }, query: { from_date: '2026-03-01', to_date: '2026-03-31' } } });
    const first: IssuedInvoice | undefined = issued.data?.data[0];
    const refused = await client.GET('/v1/cuits', { params: { query: { limit: 500 } } });
    return {
        filtered: filtered.data?.filters.categoria ?? null,
        names: cuits.data?.data.map((item) => item.displayCuit) ?? [],
        total: issued.data?.pagination.total ?? -1,
        importe: first?.importe ?? null,
        receptor: first?.receptor.nombre ?? null,
        error: refused.error?.error ?? null
    };
};
`,

    // Code a generated client must refuse: a path that does not exist, a parameter the
    // operation does not take, a category outside A to K, a field the body does not have.
    wrong: `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' });
await client.GET('/v1/cuitz');
await client.GET('/v1/cuits', { params: { query: { limite: 10 } } });
await client.GET('/v1/cuits', { params: { query: { categoria: 'Z' } } });
const tags = await client.GET('/v1/tags');
export const color: number | undefined = tags.data?.data[0]?.colour;
`,

    compile(file: string): readonly ts.Diagnostic[] {

        const program = ts.createProgram([join(internals.dir, file)], {
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            target: ts.ScriptTarget.ES2022,
            module: ts.ModuleKind.NodeNext,
            moduleResolution: ts.ModuleResolutionKind.NodeNext
        });
        return ts.getPreEmitDiagnostics(program);
    },

    text: (diagnostics: readonly ts.Diagnostic[]): string => diagnostics.map(
        (diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
    ).join('\n')
};

const [database] = testDatabases();

describe('a TypeScript client generated from /openapi.json', function () {

    this.timeout(120_000);
    let server: TestServer;
    let owner: SeededUser;

    before(async () => {

        server = await startTestServer(database!);
        owner = await seedAccount(server.app.ports);
        const client = await addClient(server.app.ports, owner.accountId, { cuit: '20-12345678-6', nombre: 'María', apellido: 'González' });
        await server.app.ports.invoices.save(client.id, 'issued', [invoice({ fecha: '2026-03-02' })], Date.parse('2026-03-03T03:00:00Z'));

        const document = (await server.request('/openapi.json')).body;
        mkdirSync(internals.dir, { recursive: true });
        // The folder's own package.json makes the generated files ES modules, as integrators' are.
        writeFileSync(join(internals.dir, 'package.json'), JSON.stringify({ type: 'module' }));
        writeFileSync(join(internals.dir, 'api.ts'), astToString(await openapiTS(document)));
        writeFileSync(join(internals.dir, 'client.ts'), internals.client);
        writeFileSync(join(internals.dir, 'wrong.ts'), internals.wrong);
    });

    after(async () => {

        await server.stop();
    });

    it('compiles under strict settings and calls the API', async () => {

        const diagnostics = internals.compile('client.ts');
        expect(internals.text(diagnostics)).to.equal('');

        const { run } = await import(pathToFileURL(join(internals.dir, 'client.ts')).href) as {
            run: (baseUrl: string, token: string) => Promise<Record<string, unknown>>;
        };
        expect(await run(server.url, owner.token)).to.deep.equal({
            filtered: 'A',
            names: ['20-12345678-6'],
            total: 1,
            importe: 1210,
            receptor: 'Cliente SA',
            error: messages.field.limit
        });
    });

    it('refuses at compile time a path, parameter, value or field the API does not have', () => {

        const diagnostics = internals.compile('wrong.ts');
        const lines = diagnostics.map((diagnostic) => diagnostic.file ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start!).line + 1 : 0);
        // One error per wrong line (5 to 9), nothing else.
        expect([...new Set(lines)].sort(), internals.text(diagnostics)).to.deep.equal([5, 6, 7, 9]);
    });
});
