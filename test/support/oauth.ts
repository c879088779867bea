import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect } from 'chai';
import { setPassword } from '../../core/use-cases/staff/set-password.js';
import type { TestDatabase } from './databases.js';
import { seedAccount } from './fixtures.js';
import type { TestServer } from './server.js';
import { startTestServer, writeServerEnv } from './server.js';

// The OAuth 2.1 authorization server driven with plain HTTP as a native client would:
// registration, the authorization request with PKCE, the consent form, the code exchange.

export const oauthTest = {
    password: 'una-clave-larga-de-prueba',
    redirect: 'http://127.0.0.1/callback'
};

// Cookies as a browser would keep them for this one origin (paths are ignored: harmless here).
class Jar {

    cookies = new Map<string, string>();

    take(response: Response): void {

        for (const header of response.headers.getSetCookie()) {
            const [pair] = header.split(';');
            const index = pair!.indexOf('=');
            this.cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1));
        }
    }

    header(): string {

        return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
}

export interface Flow {
    server: TestServer;
    clientId: string;
    jar: Jar;
    verifier: string;
    redirectUri: string;
}

export const form = (values: Record<string, string>): URLSearchParams => new URLSearchParams(values);

export const register = async (server: TestServer, metadata: Record<string, unknown> = {}): Promise<string> => {

    const res = await server.request('/oauth/register', {
        method: 'POST',
        body: {
            client_name: 'Cliente de prueba',
            redirect_uris: [oauthTest.redirect],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
            ...metadata
        }
    });
    expect(res.status, res.text).to.equal(201);
    return res.body.client_id as string;
};

// Up to the interaction page: the authorization request with PKCE and the resource.
export const authorize = async (server: TestServer, clientId: string, params: Record<string, string> = {}): Promise<{
    flow: Flow;
    location: string;
    response: Response;
}> => {

    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const redirectUri = 'http://127.0.0.1:54321/callback';
    const query = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        scope: 'service:read',
        state: 'estado-123',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: `${server.url}/mcp`,
        ...params
    });
    for (const [key, value] of Object.entries(params)) {
        if (value === '') {
            query.delete(key);
        }
    }

    const jar = new Jar();
    const response = await fetch(`${server.url}/oauth/authorize?${query}`, { redirect: 'manual' });
    jar.take(response);
    return { flow: { server, clientId, jar, verifier, redirectUri }, location: response.headers.get('location') ?? '', response };
};

// The consent form as the browser posts it: from its page, with the page's CSRF token.
export const csrfOf = async (flow: Flow, interaction: string): Promise<string> => {

    const page = await fetch(new URL(interaction, flow.server.url), { headers: { cookie: flow.jar.header() } });
    const token = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1];
    expect(token, 'CSRF token on the consent page').to.be.a('string');
    return token!;
};

export const submit = async (flow: Flow, interaction: string, values: Record<string, string>): Promise<Response> => {

    const url = new URL(interaction, flow.server.url);
    const body = form({ csrf: await csrfOf(flow, interaction), ...values });
    const response = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: flow.jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body
    });
    flow.jar.take(response);
    return response;
};

// Follows the authorization server's redirects until it sends the browser back to the client.
export const followToClient = async (flow: Flow, location: string): Promise<URL> => {

    let next = new URL(location, flow.server.url);
    while (next.origin === flow.server.url) {
        const response = await fetch(next, { redirect: 'manual', headers: { cookie: flow.jar.header() } });
        flow.jar.take(response);
        expect(response.status, `${next}: ${await response.clone().text()}`).to.be.within(300, 399);
        next = new URL(response.headers.get('location')!, flow.server.url);
    }

    return next;
};

export const tokenRequest = async (server: TestServer, values: Record<string, string>): Promise<{ status: number; body: Record<string, any> }> => {

    const res = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form(values) });
    return { status: res.status, body: await res.json() as Record<string, any> };
};

// The whole grant: consent given by the user, code exchanged.
export const grant = async (server: TestServer, clientId: string, email: string, params: Record<string, string> = {}) => {

    const { flow, location } = await authorize(server, clientId, params);
    expect(location).to.match(/^\/oauth\/interaction\//);
    const consent = await submit(flow, location, { email, password: oauthTest.password, decision: 'allow' });
    expect(consent.status).to.equal(303);
    const back = await followToClient(flow, consent.headers.get('location')!);
    expect(back.searchParams.get('state')).to.equal('estado-123');
    const code = back.searchParams.get('code');
    expect(code, back.toString()).to.be.a('string');
    const tokens = await tokenRequest(server, { grant_type: 'authorization_code', code: code!, redirect_uri: flow.redirectUri, client_id: clientId, code_verifier: flow.verifier, resource: `${server.url}/mcp` });
    expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
    return tokens.body as { access_token: string; refresh_token: string; expires_in: number; scope: string; token_type: string };
};

export const listTools = async (server: TestServer, token: string) => {

    const client = new Client({ name: 'prueba', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
        return (await client.listTools()).tools.map((tool) => tool.name);
    }
    finally {
        await client.close();
    }
};

export const mcpStatus = async (server: TestServer, token: string) => {

    const res = await server.request('/mcp', {
        method: 'POST',
        token,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }
    });
    return { status: res.status, challenge: res.headers.get('www-authenticate'), body: res.body };
};

// A request with headers fetch will not send as given (Host), straight over node:http.
export const rawRequest = (server: TestServer, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    text: string;
    body: any;
}> => {

    return new Promise((resolve, reject) => {

        const req = request(`${server.url}${path}`, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {

            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {

                const text = Buffer.concat(chunks).toString('utf8');
                let body: unknown;
                try {
                    body = JSON.parse(text);
                }
                catch {
                    body = undefined;
                }

                resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
            });
        });
        req.on('error', reject);
        req.end(options.body);
    });
};

// An MCP client's OAuth state, in memory.
export class MemoryOAuthProvider implements OAuthClientProvider {

    info: OAuthClientInformationMixed | undefined;
    saved: OAuthTokens | undefined;
    verifier = '';
    authorizationUrl: URL | null = null;

    constructor(readonly redirectUrl: string, readonly metadata: Partial<OAuthClientMetadata> = {}) {}

    get clientMetadata(): OAuthClientMetadata {

        return {
            client_name: 'Asistente de prueba',
            redirect_uris: [this.redirectUrl],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
            ...this.metadata
        };
    }

    clientInformation() {

        return this.info;
    }

    saveClientInformation(info: OAuthClientInformationMixed) {

        this.info = info;
    }

    tokens() {

        return this.saved;
    }

    saveTokens(tokens: OAuthTokens) {

        this.saved = tokens;
    }

    redirectToAuthorization(url: URL) {

        this.authorizationUrl = url;
    }

    saveCodeVerifier(verifier: string) {

        this.verifier = verifier;
    }

    codeVerifier() {

        return this.verifier;
    }
}

// The user's side of an authorization the SDK client started: the authorization URL opened,
// the consent form posted (`values`), the redirects followed back to the client.
export const consentTo = async (server: TestServer, authorizationUrl: URL, values: Record<string, string>): Promise<URL> => {

    const jar = new Jar();
    const flow: Flow = {
        server,
        clientId: authorizationUrl.searchParams.get('client_id') ?? '',
        jar,
        verifier: '',
        redirectUri: authorizationUrl.searchParams.get('redirect_uri') ?? ''
    };
    const start = await fetch(authorizationUrl, { redirect: 'manual' });
    jar.take(start);
    const interaction = start.headers.get('location') ?? '';
    expect(interaction, `${start.status} ${await start.text()}`).to.match(/\/oauth\/interaction\//);
    const consent = await submit(flow, interaction, values);
    expect(consent.status, await consent.clone().text()).to.equal(303);
    return followToClient(flow, consent.headers.get('location')!);
};

// A server whose OAuth provider can seal its keys, and a person who can sign in to it.
export const startOAuthTestServer = async (database: TestDatabase, env: Record<string, string> = {}): Promise<{ server: TestServer; email: string }> => {

    const server = await startTestServer(database, { env: { ...writeServerEnv, ...env } });
    const user = await seedAccount(server.app.ports);
    await setPassword(server.app.ports, { userId: user.userId, password: oauthTest.password });
    return { server, email: (await server.app.ports.users.findById(user.userId))!.email };
};
