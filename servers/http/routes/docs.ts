import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ServerRoute } from '@hapi/hapi';
import { openApiDocumentFor } from '../openapi/document.js';
import { httpMessages } from '../messages.js';

// GET /openapi.json (docs/api.md) and GET /docs, a reference page rendered by Swagger UI from
// the swagger-ui-dist package: no CDN, works offline.

const internals = {
    assets: {
        'swagger-ui.css': 'text/css',
        'swagger-ui-bundle.js': 'application/javascript',
        'favicon-32x32.png': 'image/png'
    } as Record<string, string>,

    assetDir: () => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')),

    page: `<!doctype html>
<html lang="es">
<head>
  <meta charset="utf-8">
  <title>arcasync API: referencia</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" href="/docs/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="referencia"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#referencia', deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 });
  </script>
</body>
</html>
`
};

export const docsRoutes = (options: { publicUrl?: string | undefined }): ServerRoute[] => {

    let document: Record<string, unknown> | null = null;
    const assets = new Map<string, Buffer>();

    return [
        {
            method: 'GET',
            path: '/openapi.json',
            options: { auth: false },
            handler: (request, h) => {

                // Built on first use, once every route is registered.
                document ??= openApiDocumentFor(request.server, options.publicUrl ?? request.server.info.uri);
                return h.response(document).type('application/json');
            }
        },
        {
            method: 'GET',
            path: '/docs',
            options: { auth: false },
            handler: (_request, h) => h.response(internals.page).type('text/html; charset=utf-8')
        },
        {
            method: 'GET',
            path: '/docs/{asset}',
            options: { auth: false },
            handler: (request, h) => {

                const name = String(request.params.asset);
                const type = internals.assets[name];
                if (!type) {
                    return h.response({ error: httpMessages.routeNotFound }).code(404);
                }

                if (!assets.has(name)) {
                    assets.set(name, readFileSync(join(internals.assetDir(), name)));
                }

                return h.response(assets.get(name)).type(type).header('cache-control', 'public, max-age=86400');
            }
        }
    ];
};
