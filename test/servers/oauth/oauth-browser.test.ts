import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import type { BrowserContext } from 'playwright-core';
import { chromium } from 'playwright-core';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { texts } from '../../../servers/oauth/texts.js';
import { invoice, movement, notification, sctData } from '../../support/data.js';
import { debianChromium, skipWithoutChromium } from '../../support/chromium.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount } from '../../support/fixtures.js';
import { MemoryOAuthProvider } from '../../support/oauth.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';

// The whole OAuth 2.1 flow as an MCP client runs it: the SDK's client discovers the
// authorization server from the 401, registers itself, sends the user's browser (headless
// Debian chromium) to the Spanish sign-in and consent page, receives the code on its loopback
// redirect URI, exchanges it with PKCE, calls every tool, and refreshes its tokens.

const internals = {
    artifacts: fileURLToPath(new URL('../../../test-artifacts/', import.meta.url)),
    password: 'una-clave-larga-de-prueba'
};

// The client's loopback redirect URI: records what the authorization server sends back.
const startCallback = async (): Promise<{ url: string; next(): Promise<URL>; close(): Promise<void> }> => {

    const waiting: ((url: URL) => void)[] = [];
    const received: URL[] = [];
    const server: NodeServer = createServer((req, res) => {

        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Listo, podés cerrar esta ventana.');
        if (url.pathname !== '/callback') {
            return;         // the browser's favicon request
        }

        const waiter = waiting.shift();
        waiter ? waiter(url) : received.push(url);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
        url: `http://127.0.0.1:${port}/callback`,
        next: () => new Promise((resolve) => {

            const first = received.shift();
            first ? resolve(first) : waiting.push(resolve);
        }),
        close: () => new Promise((resolve) => server.close(() => resolve()))
    };
};

// Debian's chromium is newer than the one playwright-core pins, and closing a page or the
// browser sometimes never settles: give it a moment, then move on.
const settle = (work: Promise<unknown>): Promise<unknown> => Promise.race([work.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000))]);

const textOf = (result: CallToolResult): string => result.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');

for (const database of testDatabases()) {

    describe(`OAuth 2.1 consent in a browser, then the tools (${database.name})`, function () {

        this.timeout(60_000);

        let server: TestServer;
        let user: SeededUser;
        let email: string;
        let browser: BrowserContext;
        let profile: string;
        let callback: Awaited<ReturnType<typeof startCallback>>;

        before(async function () {

            skipWithoutChromium(this);

            server = await startTestServer(database, { env: writeServerEnv });
            const ports = server.app.ports;
            user = await seedAccount(ports);
            await setPassword(ports, { userId: user.userId, password: internals.password });
            email = (await ports.users.findById(user.userId))!.email;
            const client = await addClient(ports, user.accountId, { cuit: '20-12345678-6', nombre: 'María', apellido: 'González' });
            const syncedAt = Date.parse('2026-03-14T03:00:00Z');
            await ports.invoices.save(client.id, 'received', [invoice({ fecha: '2026-03-04' })], syncedAt);
            await ports.sct.replace(client.id, sctData(), syncedAt);
            await ports.ccma.replace(client.id, { saldoDeudor: 100, saldoAcreedor: null }, [movement({ orden: 1, periodo: '01/2026' })], syncedAt);
            await ports.notifications.save(client.id, [notification({ arcaId: '1', fechaRecepcion: '2026-03-01T10:00:00.000Z' })], syncedAt);

            callback = await startCallback();
            profile = mkdtempSync(join(tmpdir(), 'arcasync-chromium-'));
            browser = await chromium.launchPersistentContext(profile, { executablePath: debianChromium.path, headless: true, args: debianChromium.args });
        });

        after(async () => {

            await settle(browser?.close() ?? Promise.resolve());
            await callback?.close();
            await server?.stop();
            if (profile) {
                rmSync(profile, { recursive: true, force: true });
            }
        });

        it('registers, gets the user consent in the browser, exchanges the code, calls every tool and refreshes', async () => {

            const mcpUrl = new URL(`${server.url}/mcp`);
            const provider = new MemoryOAuthProvider(callback.url);

            // No token yet: the 401 leads the SDK through discovery and registration to the
            // authorization URL (PKCE S256, resource = /mcp).
            const first = new Client({ name: 'asistente', version: '1.0.0' });
            const error = await first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })).then(() => null, (err: unknown) => err);
            expect(error).to.be.instanceOf(UnauthorizedError);
            const authorizationUrl = provider.authorizationUrl!;
            expect(authorizationUrl.searchParams.get('code_challenge_method')).to.equal('S256');
            expect(authorizationUrl.searchParams.get('resource')).to.equal(mcpUrl.href);
            expect(authorizationUrl.searchParams.get('scope')).to.equal('service:read');

            const page = await browser.newPage();
            await page.goto(authorizationUrl.href);
            await page.getByRole('heading', { name: texts.heading }).waitFor();
            expect(await page.textContent('main')).to.contain(texts.clientAsks('Asistente de prueba'));
            await page.fill('#email', email);
            await page.fill('#password', internals.password);
            mkdirSync(internals.artifacts, { recursive: true });
            await page.screenshot({ path: join(internals.artifacts, `oauth-consent-${database.name}.png`), fullPage: true });

            const arrived = callback.next();
            await page.getByRole('button', { name: texts.allow }).click();
            const redirect = await arrived;
            expect(redirect.searchParams.get('error')).to.equal(null);
            const code = redirect.searchParams.get('code')!;
            expect(code).to.be.a('string');
            await settle(page.close());

            const exchange = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
            await exchange.finishAuth(code);
            expect(provider.saved?.access_token).to.be.a('string');
            expect(provider.saved?.refresh_token).to.be.a('string');

            const client = new Client({ name: 'asistente', version: '1.0.0' });
            await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
            try {
                const { tools } = await client.listTools();
                expect(tools.map((tool) => tool.name).sort()).to.deep.equal(
                    ['consultar_ccma', 'consultar_sct', 'listar_cuits', 'listar_dfe', 'listar_mis_comprobantes']
                );
                const calls: [string, Record<string, unknown>][] = [
                    ['listar_cuits', {}],
                    ['listar_mis_comprobantes', { cuit: '20123456786', tipo: 'recibidos' }],
                    ['consultar_sct', { cuit: '20123456786' }],
                    ['consultar_ccma', { cuit: '20123456786' }],
                    ['consultar_ccma', { cuit: '20123456786', consulta: 'movimientos' }],
                    ['listar_dfe', { cuit: '20123456786' }]
                ];
                for (const [name, args] of calls) {
                    const result = await client.callTool({ name, arguments: args }) as CallToolResult;
                    expect(result.isError, `${name}: ${textOf(result)}`).to.not.equal(true);
                    expect(result.structuredContent, name).to.have.property('data');
                }
            }
            finally {
                await client.close();
            }

            // Refresh: a new pair, the old refresh token spent; the new access token works.
            const before = provider.saved!;
            expect(await auth(provider, { serverUrl: mcpUrl })).to.equal('AUTHORIZED');
            expect(provider.saved!.access_token).to.not.equal(before.access_token);
            expect(provider.saved!.refresh_token).to.not.equal(before.refresh_token);
            const again = new Client({ name: 'asistente', version: '1.0.0' });
            await again.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
            try {
                const result = await again.callTool({ name: 'listar_cuits', arguments: {} }) as CallToolResult;
                expect(textOf(result)).to.contain('González, María');
            }
            finally {
                await again.close();
            }
        });

        it('sends access_denied back to the client when the user denies', async () => {

            const provider = new MemoryOAuthProvider(callback.url);
            const client = new Client({ name: 'asistente', version: '1.0.0' });
            await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider })).catch(() => undefined);
            const page = await browser.newPage();
            await page.goto(provider.authorizationUrl!.href);
            const arrived = callback.next();
            await page.getByRole('button', { name: texts.deny }).click();
            const redirect = await arrived;
            expect(redirect.searchParams.get('error')).to.equal('access_denied');
            expect(redirect.searchParams.get('code')).to.equal(null);
            await settle(page.close());
        });
    });
}
