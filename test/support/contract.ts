import type { Server } from '@hapi/hapi';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isDocumentedPath, openApiDocumentFor } from '../../servers/http/openapi/document.js';

// The contract test: every response that any test's server sends on a documented path is
// checked against the published OpenAPI document (status, declared headers, content type,
// body). A response the document does not describe fails the test that caused it.

type Schema = Record<string, unknown>;

interface Operation {
    method: string;
    template: string;
    pattern: RegExp;
    responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: Schema }> }>;
}

interface CheckedResponse {
    method: string;
    path: string;
    status: number;
    headers: Record<string, string | string[] | number | undefined>;
    contentType: string | null;
    body: unknown;                     // parsed JSON, a string, or null for no body
}

// What the run has checked lives on the process, not on this module: test files may load
// the module twice (ESM and CommonJS), and the root hooks must see every server's responses.
interface RunState {
    violations: string[];
    exercised: Set<string>;
    documented: Set<string>;
    checked: number;
}

const processState = globalThis as typeof globalThis & { arcasyncContract?: RunState };
processState.arcasyncContract ??= { violations: [], exercised: new Set(), documented: new Set(), checked: 0 };

const internals = {
    addFormats: addFormatsModule as unknown as (ajv: Ajv2020) => void,
    run: processState.arcasyncContract,
    contracts: new WeakMap<object, Contract>(),
    // Servers of one process serve the same document but for their address: one contract, and
    // its compiled validators, for every server whose paths and components are alike.
    byDocument: new Map<string, Contract>(),

    contractOf(document: Schema): Contract {

        const key = JSON.stringify({ paths: document.paths, components: document.components });
        let contract = internals.byDocument.get(key);
        if (!contract) {
            contract = contractFromDocument(document);
            internals.byDocument.set(key, contract);
        }

        return contract;
    },

    // Response schemas point at '#/components/...' of the document; inside ajv they live
    // under the schema registered as 'openapi'.
    rebase: (schema: Schema): Schema => JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/')) as Schema
};

export interface Contract {
    check(response: CheckedResponse): string[];
}

export const contractFromDocument = (document: Schema): Contract => {

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    internals.addFormats(ajv);
    ajv.addSchema({ $id: 'openapi', components: document.components } as Schema);

    const operations: Operation[] = [];
    for (const [template, item] of Object.entries(document.paths as Record<string, Record<string, Schema>>)) {
        const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
        for (const [method, operation] of Object.entries(item)) {
            operations.push({ method: method.toUpperCase(), template, pattern, responses: operation.responses as Operation['responses'] });
            for (const status of Object.keys(operation.responses as Schema)) {
                internals.run.documented.add(`${method.toUpperCase()} ${template} ${status}`);
            }
        }
    }

    // Literal paths win over templates (/v1/cuits before /v1/cuits/{cuit}).
    operations.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
    const validators = new Map<Schema, ValidateFunction>();
    const validatorFor = (schema: Schema): ValidateFunction => {

        let validate = validators.get(schema);
        if (!validate) {
            validate = ajv.compile({ $id: `response-${validators.size}`, ...internals.rebase(schema) });
            validators.set(schema, validate);
        }

        return validate;
    };

    return {
        check(response) {

            const operation = operations.find((candidate) => candidate.method === response.method && candidate.pattern.test(response.path));
            if (!operation) {
                return [];
            }

            const where = `${response.method} ${response.path} -> ${response.status}`;
            internals.run.exercised.add(`${operation.method} ${operation.template} ${response.status}`);
            internals.run.checked++;
            const declared = operation.responses[String(response.status)];
            if (!declared) {
                return [`${where}: estado no descripto por el documento OpenAPI`];
            }

            const problems: string[] = [];
            for (const header of Object.keys(declared.headers ?? {})) {
                if (response.headers[header.toLowerCase()] === undefined) {
                    problems.push(`${where}: falta el encabezado declarado ${header}`);
                }
            }

            const content = declared.content;
            if (!content) {
                if (response.body !== null && response.body !== '') {
                    problems.push(`${where}: el documento no declara cuerpo pero la respuesta lo tiene`);
                }

                return problems;
            }

            const mediaType = Object.keys(content).find((type) => response.contentType?.startsWith(type));
            if (!mediaType) {
                return [...problems, `${where}: tipo de contenido ${response.contentType} no declarado (${Object.keys(content).join(', ')})`];
            }

            const validate = validatorFor(content[mediaType]!.schema);
            if (!validate(response.body)) {
                problems.push(`${where}: el cuerpo no cumple el esquema: ${ajv.errorsText(validate.errors)}`);
            }

            return problems;
        }
    };
};

// Watches a started test server: every response is checked as it leaves.
export const watchContract = (server: Server): void => {

    server.events.on('response', (request) => {

        let contract = internals.contracts.get(server);
        if (!contract) {
            contract = internals.contractOf(openApiDocumentFor(server, server.info.uri));
            internals.contracts.set(server, contract);
        }

        if (!isDocumentedPath(request.path)) {
            return;
        }

        const response = request.response as unknown as { statusCode: number; headers: Record<string, string>; source: unknown; variety?: string } | null;
        if (!response || typeof response.statusCode !== 'number') {
            return;
        }

        const contentType = String(
            response.headers['content-type'] ?? ''
        ) || (typeof response.source === 'string' ? 'text/html' : response.source === null ? null : 'application/json');
        internals.run.violations.push(...contract.check({
            method: request.method.toUpperCase(),
            path: request.path,
            status: response.statusCode,
            headers: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value])),
            contentType,
            // A JSON answer may leave as text already serialized (the read cache's, see
            // servers/http/errors.ts): what is checked is what goes on the wire.
            body: (typeof response.source === 'string' || Buffer.isBuffer(response.source)) && /json/.test(contentType ?? '') ? JSON.parse(
                String(response.source)
            ) : response.source ?? null
        }));
    });
};

export const takeViolations = (): string[] => internals.run.violations.splice(0);

// What this process has checked, as JSON: a parallel run has several worker processes, and
// the run's summary adds up theirs (contractSummary).
export interface ContractTally {
    checked: number;
    exercised: string[];
    documented: string[];
}

export const contractTally = (): ContractTally => ({
    checked: internals.run.checked,
    exercised: [...internals.run.exercised],
    documented: [...internals.run.documented]
});

export const contractSummary = (tallies: readonly ContractTally[]): { checked: number; unexercised: string[] } => {

    const exercised = new Set(tallies.flatMap((tally) => tally.exercised));
    const documented = new Set(tallies.flatMap((tally) => tally.documented));
    return {
        checked: tallies.reduce((sum, tally) => sum + tally.checked, 0),
        unexercised: [...documented].filter((key) => !exercised.has(key)).sort()
    };
};
