// What only some commands use and would cost every start-up, `--version` included, if imported
// at the top: loaded when the command that needs it runs. Everything else a command uses (core's
// use cases, app/config, app/sync, app/webhooks, app/secret-keys) is imported plainly: together
// they add about a hundredth of a second to a start (measured before the split, docs/development.md).
// An entry earns its place here by an external library of weight behind it.
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
