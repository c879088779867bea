import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Ports } from '../../core/ports/index.js';
import type { CliIo } from '../io.js';
import { lazy } from '../lazy.js';
import { configOf } from '../run.js';

const internals = {
    // The document only reads the route table; no handler runs, so no adapter is needed.
    noPorts: new Proxy({}, {
        get: (_target, name) => {

            throw new Error(`el documento OpenAPI no usa ${String(name)}`);
        }
    }) as Ports
};

// `arcasync openapi`: the OpenAPI document the server publishes at /openapi.json, without a
// database.
export const registerOpenApiCommand = (program: Command, io: CliIo): void => {

    program.command('openapi')
        .description('imprime el documento OpenAPI 3.1 de la API')
        .option('--out <file>', 'lo escribe en un archivo')
        .action(async (options: { out?: string }) => {

            const [{ openApiDocumentFor }, { createHttpServer }] = await Promise.all([lazy.openApi(), lazy.httpServer()]);
            const config = configOf(io);
            const server = await createHttpServer(internals.noPorts, { host: config.host, port: config.port });
            const text = `${JSON.stringify(openApiDocumentFor(server, config.publicUrl), null, 2)}\n`;
            if (options.out) {
                const out = resolve(io.cwd, options.out);
                mkdirSync(dirname(out), { recursive: true });
                writeFileSync(out, text);
            }
            else {
                io.stdout.write(text);
            }
        });
};
