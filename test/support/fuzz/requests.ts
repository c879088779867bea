import type { Random } from './random.js';
import { rawRequest } from '../raw-http.js';

// Generated requests for the fuzz suite: every route and method of the service, with and
// without a valid token, and what an attacker varies: paths, CUITs, pagination and dates,
// bodies (malformed, truncated, oversized, deeply nested, not UTF-8), content types, and
// duplicated or broken headers; some requests are cut short or followed by junk.

export interface FuzzContext {
    // Tokens of an owner with API writing enabled, and of a member who reads only.
    writer: string;
    reader: string;
    // CUITs that exist in the writer's account.
    cuits: readonly string[];
    // Values a request may carry that must never be logged: keys and passwords sent.
    claves: readonly string[];
    passwords: readonly string[];
}

export interface FuzzRequest {
    kind: string;
    method: string;
    path: string;
    bytes: Buffer;
    // Cut short: the client ends its side and may get no answer.
    truncated: boolean;
    // Answers expected on the connection (two when a second request follows the first).
    answers: number;
}

type Headers = [string, string][];

const internals = {
    methods: ['GET', 'GET', 'GET', 'POST', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'get'] as const,

    cuitPaths: ['', '/mis-comprobantes/emitidos', '/mis-comprobantes/recibidos', '/sct', '/ccma', '/ccma/movimientos', '/dfe'],

    fixedPaths: [
        '/healthcheck', '/v1/cuits', '/v1/tags', '/v1', '/', '/docs', '/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/nada.js',
        '/openapi.json', '/mcp', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/oauth/authorize', '/oauth/token',
        '/oauth/register', '/oauth/revoke', '/oauth/jwks', '/oauth/userinfo', '/oauth/logout', '/oauth/interaction/abc123',
        '/metrics', '/v2/cuits', '/v1/cuits/', '//v1//cuits', '/v1/./cuits', '/v1/cuits/../tags', '/%2e%2e/%2e%2e/etc/passwd',
        '/v1/cuits%00', '/v1/%FF', '/v1/cuits?%', '/\u00e9', '/v1/cuits#frag', '*', 'http://127.0.0.1/v1/cuits', '/v1/tags;x=1'
    ],

    oddCuits: [
        '20-12345678-6', '2012345678', '201234567861', 'abcdefghijk', '20 12345678 6', '20%2012345678%206', '-20123456786',
        '２０１２３４５６７８６', '20123456786%00', '20-1234567-86', '0', '', '%FF%FE', '99999999999', '00000000000',
        '20123456786.json', `2${'0'.repeat(400)}`, '20.12345678.6', '20_12345678_6', '2e10', '20123456786%0A'
    ],

    limits: ['1', '50', '100', '0', '101', '-1', ' 1', '1e2', '+1', '50.0', '-0', '007', '9999999999999999999999', 'abc', '', '0x10', '1,2', 'NaN', 'Infinity'],

    dates: [
        '2026-01-01',
        '2026-03-31',
        '2026-02-29',
        '2024-02-29',
        '2026-13-01',
        '2026-00-10',
        '2026-1-1',
        '26-01-01',
        '0000-01-01',
        '9999-12-31',
        '2026-03-15T00:00:00Z',
        '',
        'hoy',
        '2026/03/01',
        '+02026-01-01',
        '2026-03-01\u0000'
    ],

    queryValues: ['true', 'false', 'TRUE', '1', 'si', '', 'A', 'K', 'Z', 'a', 'Monotributo', '%FF', '%00', 'x'.repeat(3000), '[]', '{}'],

    contentTypes: [
        'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/merge-patch+json', 'text/plain',
        'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/xml',
        'application/json;;;', 'application/', '', '*/*', 'application/json\u0001', 'application/vnd.api+json'
    ],

    englishDefaults: ['Bad Request', 'Not Found', 'Internal Server Error'],


    path(random: Random, context: FuzzContext): string {

        const roll = random.next();
        if (roll < 0.45) {
            const cuit = random.chance(0.6) ? random.pick(context.cuits) : random.pick(internals.oddCuits);
            return `/v1/cuits/${cuit}${random.pick(internals.cuitPaths)}${internals.query(random)}`;
        }

        if (roll < 0.6) {
            return `${random.pick(['/v1/cuits', '/v1/tags'])}${internals.query(random)}`;
        }

        if (roll < 0.95) {
            return random.pick(internals.fixedPaths);
        }

        return `/${random.word(random.int(1, 20))}/${'a'.repeat(random.chance(0.3) ? 5000 : 3)}`;
    },

    query(random: Random): string {

        if (random.chance(0.3)) {
            return '';
        }

        const parts: string[] = [];
        for (let i = random.int(1, 4); i > 0; i--) {
            const name = random.pick(
                [
                    'limit',
                    'offset',
                    'limit',
                    'offset',
                    'from_date',
                    'to_date',
                    'from_date',
                    'to_date',
                    'etiquetas',
                    'monotributista',
                    'autonomo',
                    'categoria',
                    'fromDate',
                    '__proto__',
                    'limit[]',
                    'constructor[prototype][x]',
                    ''
                ]
            );
            const value = /limit|offset/.test(name) ? random.pick(internals.limits) : /date/i.test(name) ? random.pick(internals.dates) : random.pick(
                internals.queryValues
            );
            parts.push(`${name}=${random.chance(0.2) ? value : encodeURIComponent(value)}`);
        }

        return `?${parts.join('&')}`;
    },

    auth(random: Random, context: FuzzContext, headers: Headers): void {

        const roll = random.next();
        if (roll < 0.4) {
            headers.push(['Authorization', `Bearer ${context.writer}`]);
        }
        else if (roll < 0.55) {
            headers.push(['Authorization', `Bearer ${context.reader}`]);
        }
        else if (roll < 0.7) {
            headers.push(['Authorization', random.pick([`bearer ${context.writer}`, `Bearer  ${context.writer} `, `Basic ${Buffer.from(`a:${context.writer}`).toString('base64')}`, 'Bearer', 'Bearer asy_', `Bearer ${context.writer}x`, `Bearer ${context.writer.slice(0, 20)}`, `Token ${context.reader}`])]);
        }
    },

    body(random: Random, context: FuzzContext): Buffer | string {

        const clave = random.pick(context.claves);
        const cuit = random.chance(0.5) ? `20${String(random.int(0, 99_999_999)).padStart(8, '0')}${random.int(0, 9)}` : random.pick([...context.cuits, ...internals.oddCuits]);
        const person: Record<string, unknown> = { tipo: 'persona-fisica', cuit, nombre: 'Ana', apellido: 'Paz', clave_arca: clave };
        const roll = random.next();
        if (roll < 0.3) {
            // A body of the right shape with one field changed to something odd.
            const field = random.pick(
                [
                    'tipo',
                    'cuit',
                    'nombre',
                    'apellido',
                    'clave_arca',
                    'email',
                    'telefono',
                    'razon_social',
                    'representante',
                    'monotributista',
                    '__proto__',
                    'extra'
                ]
            );
            person[field] = random.pick<unknown>(
                [
                    null,
                    0,
                    -1,
                    1e308,
                    true,
                    [],
                    {},
                    '',
                    ' ',
                    'x'.repeat(300),
                    'A\u0000na',
                    'Pa\ud800z',
                    '\u202e',
                    'ñandú',
                    '<script>',
                    '20-12345678-6',
                    { $gt: '' },
                    [clave]
                ]
            );
            return JSON.stringify(person);
        }

        if (roll < 0.45) {
            return JSON.stringify(random.chance(0.5) ? person : {
                nombre: random.pick(['Ana', '']),
                email: random.pick(['a@b.co', 'no-es-email', null]),
                telefono: random.pick(['+54 11 5555-5555', null, 5]),
                clave_arca: clave
            });
        }

        if (roll < 0.55) {
            // Bytes that are not UTF-8 inside a value.
            const text = Buffer.from(JSON.stringify({ ...person, nombre: 'An#a' }));
            text[text.indexOf('#')] = random.pick([0xff, 0xc3, 0xe2, 0x80, 0xed]);
            return text;
        }

        if (roll < 0.63) {
            const depth = random.pick([10, 1000, 20_000]);
            return random.chance(0.5) ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
        }

        if (roll < 0.7) {
            // Over the 64 KiB the write routes take, or just under.
            return JSON.stringify({ ...person, nombre: 'x'.repeat(random.pick([60_000, 70_000, 200_000])) });
        }

        if (roll < 0.85) {
            const json = JSON.stringify(person);
            return random.pick([json.slice(0, random.int(0, json.length - 1)), `${json}}`, `${json}\u0000`, `\ufeff${json}`, json.replace('"tipo"', '"tipo":"x","tipo"'), 'null', '[]', '"texto"', '1', '', 'clave_arca=' + clave, `<a>${clave}</a>`]);
        }

        return random.bytes(random.int(1, 200));
    },

    oddHeaders(random: Random, context: FuzzContext, headers: Headers): void {

        for (let i = random.int(1, 3); i > 0; i--) {
            headers.push(random.pick<[string, string]>([
                ['Authorization', `Bearer ${context.writer}`],
                ['Authorization', `Bearer ${context.reader}`],
                ['Content-Type', random.pick(internals.contentTypes)],
                ['Expect', random.pick(['100-continue', 'foo', '100-Continue', ''])],
                ['Range', random.pick(['bytes=0-10', 'bytes=-5', 'bytes=5-1', 'bytes=0-1,3-4', 'items=1'])],
                ['If-Range', '"x"'],
                ['Origin', random.pick(['https://example.com', 'null', 'http://127.0.0.1'])],
                ['Access-Control-Request-Method', random.pick(['GET', 'POST', 'DELETE', 'x y', ''])],
                ['Access-Control-Request-Headers', 'authorization, content-type'],
                ['Accept-Encoding', random.pick(['gzip', 'br', 'deflate', 'gzip;q=0, *;q=0', 'x'.repeat(100)])],
                ['Content-Encoding', random.pick(['gzip', 'deflate', 'br', 'chunked'])],
                ['X-Request-Id', random.pick(['erp-1', '', 'a b', 'x'.repeat(500), '../../etc'])],
                ['Cookie', random.pick(['a=b', 'a', ';;;', '=;=', `token=${context.writer}`, 'x'.repeat(5000)])],
                ['Host', random.pick(['', 'evil.example', '127.0.0.1:1', '[::1', 'a b'])],
                ['Accept', random.pick(['text/html', 'application/xml', '*/*', '', 'application/json;q=0'])],
                ['If-None-Match', random.pick(['*', '"abc"', 'W/"x"'])],
                ['If-Modified-Since', random.pick(['Mon, 01 Jan 2024 00:00:00 GMT', 'ayer'])],
                ['X-Forwarded-For', '1.2.3.4, <script>'],
                ['Upgrade', random.pick(['websocket', 'h2c'])],
                ['Content-Length', random.pick(['0', '-1', 'abc', '1 1', '99999999999999999999'])],
                ['Transfer-Encoding', random.pick(['chunked', 'gzip', 'identity', 'chunked, chunked'])],
                ['X-Big', 'x'.repeat(random.pick([100, 9000, 20_000]))],
                ['Bad Name', 'x'],
                ['X-Ctl', 'a\u0001b'],
                ['X-Latin', '\u00e9\u00ff']
            ]));
        }
    },

    shuffle: <T>(random: Random, items: T[]): T[] => items.map((item) => [random.next(), item] as const).sort((a, b) => a[0] - b[0]).map(([, item]) => item),

    // Requests whose framing is broken: cut short, followed by junk or a second request,
    // chunked bodies with bad chunks, malformed request lines, bare junk.
    framing(random: Random, context: FuzzContext): FuzzRequest {

        const body = JSON.stringify({ tipo: 'persona-fisica', cuit: '20111111112', nombre: 'Ana', apellido: 'Paz', clave_arca: random.pick(context.claves) });
        const headers: Headers = [['Host', 'x'], ['Authorization', `Bearer ${random.chance(0.5) ? context.writer : context.reader}`], ['Content-Type', 'application/json']];
        const path = random.pick(['/v1/cuits', '/healthcheck', '/no-existe', '/mcp', '/oauth/token', `/v1/cuits/${random.pick(context.cuits)}`, '/oauth/interaction/abc']);
        const method = random.pick(['POST', 'PATCH', 'GET', 'DELETE']);
        const whole = rawRequest(method, path, [...headers, ['Content-Length', String(Buffer.byteLength(body))]], body);
        const roll = random.next();
        const result = (kind: string, bytes: Buffer | string, truncated = false, answers = 1): FuzzRequest => ({ kind: `framing:${kind}`, method, path, bytes: Buffer.from(bytes), truncated, answers });
        if (roll < 0.2) {
            // The review's case: one byte more than declared, with or without Connection: close.
            const declared = rawRequest(
                method,
                path,
                [
                    ...headers,
                    ['Content-Length', String(random.int(0, Buffer.byteLength(body)))],
                    ...(random.chance(0.5) ? [['Connection', 'close'] as [string, string]] : [])
                ],
                body
            );
            return result('extra-bytes', declared, false, 1);
        }

        if (roll < 0.4) {
            return result('cut-short', whole.subarray(0, random.int(1, whole.length - 1)), true);
        }

        if (roll < 0.55) {
            const chunks = random.pick(['5\r\n{"a":\r\n0\r\n\r\n', 'ZZ\r\n{}\r\n0\r\n\r\n', '2\r\n{}\r\n', `${random.int(1, 9)}\r\n${random.word(20)}\r\n0\r\n\r\n`, '0\r\n\r\n', 'fffffffffffffffff\r\n']);
            const chunked = rawRequest(
                method,
                path,
                [
                    ...headers,
                    ['Transfer-Encoding', 'chunked'],
                    ...(random.chance(0.3) ? [['Content-Length', '3'] as [string, string]] : []),
                    ['Connection', 'close']
                ],
                chunks
            );
            return result('chunked', chunked, true);
        }

        if (roll < 0.7) {
            const second = random.pick([`GET /healthcheck HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 'JUNK\r\n\r\n', '\u0000\u0001\u0002', `GET /v1/cuits HTTP/1.1\r\nAuthorization: Bearer ${context.writer}\r\nConnection: close\r\n\r\n`]);
            const first = rawRequest('GET', random.pick(['/healthcheck', '/v1/tags', '/nada']), [['Host', 'x'], ['Authorization', `Bearer ${context.writer}`]]);
            return result('pipelined', Buffer.concat([first, Buffer.from(second, 'latin1')]), true, 2);
        }

        if (roll < 0.85) {
            return result('request-line', random.pick([
                `${method} ${path}\r\n\r\n`, `${method} ${path} HTTP/2.0\r\nHost: x\r\n\r\n`, `${method} ${path} HTTP/1.0\r\nAuthorization: Bearer ${context.writer}\r\n\r\n`,
                `${method}  ${path}  HTTP/1.1\r\n\r\n`, `${method} ${path} HTTP/1.1\nHost: x\n\n`, `${method} /v1/cuits\u0000 HTTP/1.1\r\n\r\n`,
                `${method} ${path} HTTP/1.1\r\nHost: x\r\n folded: header\r\n\r\n`, `${method} ${path} HTTP/1.1\r\nX: ${'a'.repeat(70_000)}\r\n\r\n`,
                `${method} ${path} HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{"a":1}`, `${method} ${path} HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`
            ]), true);
        }

        return result('junk', random.bytes(random.int(1, 300)), true);
    }
};

export const fuzzRequest = (random: Random, context: FuzzContext): FuzzRequest => {

    const kind = random.pick(['route', 'route', 'route', 'route', 'body', 'body', 'body', 'headers', 'headers', 'framing'] as const);
    if (kind === 'framing') {
        return internals.framing(random, context);
    }

    const method = kind === 'body' ? random.pick(['POST', 'PATCH', 'POST', 'PUT', 'DELETE']) : random.pick(internals.methods);
    const form = kind === 'body' && random.chance(0.1);
    const path = form ? random.pick(['/oauth/interaction/abc123', '/oauth/token', '/oauth/register', '/mcp'])
        : kind === 'body' && random.chance(0.8) ? (method === 'POST' ? '/v1/cuits' : `/v1/cuits/${random.pick(context.cuits)}`) : internals.path(random, context);
    const headers: Headers = [['Host', '127.0.0.1']];
    internals.auth(random, context, headers);
    let body: Buffer | string = '';
    if (form) {
        // A sign-in or token request: a password that must stay out of the log.
        const password = random.pick(context.passwords);
        body = random.pick([`email=ana%40example.com&password=${password}&decision=allow`, `grant_type=password&client_secret=${password}&password=${password}`, JSON.stringify({ password, client_secret: password })]);
        headers.push(['Content-Type', body.startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded']);
    }
    else if (kind === 'body' || random.chance(0.15)) {
        body = internals.body(random, context);
        headers.push(['Content-Type', random.chance(0.7) ? 'application/json' : random.pick(internals.contentTypes)]);
    }

    if (kind === 'headers') {
        internals.oddHeaders(random, context, headers);
    }

    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (!headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name)) && (bytes.length || random.chance(0.3))) {
        headers.push(['Content-Length', String(bytes.length)]);
    }

    headers.push(['Connection', 'close']);
    // With a framing header of its own the body may not be what it announces: the client
    // ends its side, as one that sent all it had.
    const framing = headers.filter(([name]) => /^(content-length|transfer-encoding)$/i.test(name));
    const reframed = framing.length > 1 || framing.some(([name, value]) => /^transfer-encoding$/i.test(name) || value !== String(bytes.length));
    return {
        kind,
        method,
        path,
        bytes: rawRequest(method, path, random.chance(0.1) ? internals.shuffle(random, headers) : headers, bytes),
        truncated: reframed,
        answers: 1
    };
};

// Whether an answer's `error` reads as one of the service's Spanish messages (not hapi's or
// Node's English defaults).
export const isSpanishMessage = (message: unknown): boolean => {

    return typeof message === 'string' && message.length > 0 && !internals.englishDefaults.includes(
        message
    ) && !/^(CORS|Invalid|Missing|Unsupported|Payload|Request)\b/.test(message)
        && /\b(el|la|los|las|de|del|no|debe|es|se|ya|para|un|una)\b/i.test(message);
};
