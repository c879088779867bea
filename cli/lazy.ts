// What only some commands use and is heavy to load: loaded when the command that needs it runs.
// Everything else a command uses (core's use cases, app/config, app/sync, app/webhooks,
// app/secret-keys) is imported plainly, its group loaded only when named (commands/index.ts).
// An entry earns its place here by an external library of weight behind it (app/compose alone:
// knex, both drivers, every adapter; several times a start's cost).
export const lazy = {
    compose: () => import('../app/compose.js'),                    // knex, the drivers, every adapter
    database: () => import('../app/database.js'),                  // knex and the drivers
    worker: () => import('../app/worker.js'),                      // the composed app
    authority: () => import('../app/authority.js'),                // ARCA's client and the simulated one
    metrics: () => import('../app/metrics.js'),                    // prom-client
    server: () => import('../app/server.js'),                      // hapi, OAuth, MCP
    demo: () => import('../app/demo.js'),                          // the whole service
    httpServer: () => import('../servers/http/server.js'),         // hapi
    openApi: () => import('../servers/http/openapi/document.js'),
    mcpStdio: () => import('../servers/mcp/stdio.js'),             // the MCP SDK, joi
    cuitHealth: () => import('../core/use-cases/cuit-health.js'),  // joi, through read parameters
    spinner: () => import('ora')
};
