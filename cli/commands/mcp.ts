import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { stopRequested } from '../io.js';
import { lazy } from '../lazy.js';
import { cliMessages } from '../messages.js';
import { failure, openApp } from '../run.js';

// `arcasync mcp`: the MCP tools over stdio as the user of ARCASYNC_TOKEN, until stdin ends or a
// stop is asked. (The password and OAuth authorizations of that user: `user set-password`,
// `user revoke-oauth`.)
export const registerMcpCommand = (program: Command, io: CliIo): void => {

    program.command('mcp')
        .description('servidor MCP por stdio (las cinco herramientas de solo lectura) como el usuario de ARCASYNC_TOKEN')
        .action(async () => {

            const token = io.env.ARCASYNC_TOKEN;
            if (!token) {
                throw failure(cliMessages.noToken);
            }

            const { serveStdio } = await lazy.mcpStdio();
            // stdout carries the protocol: anything else goes to stderr.
            const log = (event: Record<string, unknown>) => io.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...event })}\n`);
            const app = await openApp(io);
            try {
                const server = await serveStdio(app.ports, token, log);
                const ended = new Promise<void>((resolve) => {

                    io.stdin.on('end', resolve);
                    io.stdin.on('close', resolve);
                });
                await Promise.race([ended, stopRequested(io)]);
                await server.close().catch(() => undefined);
            }
            finally {
                await app.close();
            }
        });
};
