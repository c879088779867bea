import { IncomingMessage } from 'node:http';

// What open client registration (RFC 7591) accepts: what MCP clients send, nothing that makes
// this server fetch a URL, in bounded counts and sizes. MCP clients are public clients
// (token_endpoint_auth_method "none") with a few redirect URIs and a name; a key set by URL
// (jwks_uri), a sector identifier or request URIs would have the server GET an address the
// registrant chose (blind SSRF, loopback and cloud metadata included). The body is read and
// checked here, before the provider parses it: a JSON nested thousands deep made it fail
// with a 500.

export const registrationLimits = {
    bodyBytes: 16 * 1024,
    depth: 4,                  // {"redirect_uris": ["…"]} is 2
    arrayItems: 10,            // redirect URIs, grant types, contacts…
    properties: 40,
    text: 2048,                // any one value (a URI)
    name: 200                  // client_name
};

const internals = {
    // Metadata whose value is an address the server would fetch, or keys for methods of
    // authentication no MCP client uses.
    refused: ['jwks_uri', 'jwks', 'sector_identifier_uri', 'request_uris'],

    depth(value: unknown): number {

        let deepest = 0;
        const stack: [unknown, number][] = [[value, 1]];
        while (stack.length) {
            const [item, depth] = stack.pop()!;
            if (item !== null && typeof item === 'object') {
                deepest = Math.max(deepest, depth);
                if (deepest > registrationLimits.depth) {
                    return deepest;
                }

                for (const child of Object.values(item)) {
                    stack.push([child, depth + 1]);
                }
            }
        }

        return deepest;
    },

    // Every string and array in the metadata, wherever it is.
    sizes(metadata: Record<string, unknown>): string | null {

        for (const [name, value] of Object.entries(metadata)) {
            const values = Array.isArray(value) ? value : [value];
            if (Array.isArray(value) && value.length > registrationLimits.arrayItems) {
                return `${name}: como máximo ${registrationLimits.arrayItems} valores`;
            }

            const longest = name === 'client_name' ? registrationLimits.name : registrationLimits.text;
            if (values.some((item) => typeof item === 'string' && item.length > longest)) {
                return `${name}: como máximo ${longest} caracteres por valor`;
            }
        }

        return null;
    }
};

// Why the registration is refused (a Spanish error_description), or null.
export const registrationRefusal = (body: Buffer): string | null => {

    let metadata: unknown;
    try {
        metadata = JSON.parse(body.toString('utf8'));
    }
    catch {
        return 'el cuerpo no es JSON válido';
    }

    if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
        return 'el cuerpo debe ser un objeto JSON con los metadatos del cliente';
    }

    if (internals.depth(metadata) > registrationLimits.depth) {
        return `el JSON anida más de ${registrationLimits.depth} niveles`;
    }

    const fields = metadata as Record<string, unknown>;
    if (Object.keys(fields).length > registrationLimits.properties) {
        return `como máximo ${registrationLimits.properties} metadatos`;
    }

    const refused = internals.refused.find((name) => fields[name] !== undefined);
    if (refused) {
        return `${refused} no se acepta: los clientes se registran como públicos (token_endpoint_auth_method "none")`;
    }

    if (fields.token_endpoint_auth_method !== undefined && fields.token_endpoint_auth_method !== 'none') {
        return 'token_endpoint_auth_method debe ser "none": este servidor registra solo clientes públicos, con PKCE';
    }

    return internals.sizes(fields);
};

// The registration request's body, at most `limit` bytes (null past it), read before the
// provider sees the request.
export const readBody = (req: IncomingMessage, limit = registrationLimits.bodyBytes): Promise<Buffer | null> => {

    return new Promise((resolve, reject) => {

        const chunks: Buffer[] = [];
        let size = 0;
        req.on('data', (chunk: Buffer) => {

            size += chunk.length;
            if (size > limit) {
                req.removeAllListeners('data');
                req.resume();
                resolve(null);
                return;
            }

            chunks.push(chunk);
        });
        req.once('end', () => resolve(size > limit ? null : Buffer.concat(chunks)));
        req.once('error', reject);
    });
};

// The same request with its body read already, for the provider to read again.
export const replayed = (req: IncomingMessage, body: Buffer): IncomingMessage => {

    const copy = new IncomingMessage(req.socket);
    // Complete: once read, a copy that is not would take the socket down with it.
    Object.assign(copy, {
        complete: true,
        method: req.method,
        url: req.url,
        headers: { ...req.headers, 'content-length': String(body.length) },
        rawHeaders: req.rawHeaders,
        httpVersion: req.httpVersion,
        httpVersionMajor: req.httpVersionMajor,
        httpVersionMinor: req.httpVersionMinor
    });
    copy.push(body);
    copy.push(null);
    return copy;
};
