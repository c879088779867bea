import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../app/config.js';
import type { Ports } from '../../core/ports/index.js';
import { openApiDocumentFor } from '../../servers/http/openapi/document.js';
import { createHttpServer } from '../../servers/http/server.js';
import { fail } from '../run.js';

const internals = {
    // The document only reads the route table; no handler runs, so no adapter is needed.
    noPorts: new Proxy({}, {
        get: (_target, name) => {

            throw new Error(`el documento OpenAPI no usa ${String(name)}`);
        }
    }) as Ports
};

// Prints the OpenAPI document the server publishes at /openapi.json, without a database.
export const registerOpenApiCommand = (program: Command): void => {

    program.command('openapi')
        .description('imprime el documento OpenAPI 3.1 de la API')
        .option('--out <file>', 'lo escribe en un archivo')
        .action(async (options: { out?: string }) => {

            try {
                const config = loadConfig();
                const server = await createHttpServer(internals.noPorts, { host: config.host, port: config.port });
                const text = `${JSON.stringify(openApiDocumentFor(server, config.publicUrl), null, 2)}\n`;
                if (options.out) {
                    mkdirSync(dirname(options.out), { recursive: true });
                    writeFileSync(options.out, text);
                }
                else {
                    process.stdout.write(text);
                }
            }
            catch (err) {
                fail(err);
            }
        });
};
