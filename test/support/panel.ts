import { expect } from 'chai';
import { panelTexts } from '../../servers/panel/texts.js';
import type { TestResponse, TestServer } from './server.js';

// A browser, as far as the panel needs one: it keeps the cookies the server sets (by name), sends
// them back, and posts forms with the CSRF token of the page it last read.

export interface PanelAgent {
    cookies: Map<string, string>;
    get(path: string): Promise<TestResponse>;
    post(path: string, fields: Record<string, string>, options?: { crumb?: boolean }): Promise<TestResponse>;
    signIn(email: string, password: string): Promise<TestResponse>;
    setCookies(response: TestResponse): string[];
}

const internals = {
    crumbField: /<input type="hidden" name="([^"]+)" value="([^"]*)">/
};

export const panelAgent = (server: TestServer): PanelAgent => {

    const cookies = new Map<string, string>();
    let crumb: { name: string; value: string } | null = null;

    const remember = (response: TestResponse): TestResponse => {

        for (const line of response.headers.getSetCookie()) {
            const [pair] = line.split(';');
            const at = pair!.indexOf('=');
            const name = pair!.slice(0, at).trim();
            const value = pair!.slice(at + 1).trim();
            value ? cookies.set(name, value) : cookies.delete(name);
        }

        const field = internals.crumbField.exec(response.text);
        if (field) {
            crumb = { name: field[1]!, value: field[2]! };
        }

        return response;
    };

    const headers = (): Record<string, string> => (cookies.size ? { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {});

    const agent: PanelAgent = {
        cookies,
        get: async (path) => remember(await server.request(path, { headers: headers() })),
        async post(path, fields, options = {}) {

            const form = new URLSearchParams(fields);
            if (options.crumb !== false && crumb) {
                form.set(crumb.name, crumb.value);
            }

            return remember(await server.request(path, {
                method: 'POST',
                headers: { ...headers(), 'content-type': 'application/x-www-form-urlencoded' },
                body: form.toString()
            }));
        },
        async signIn(email, password) {

            const page = await agent.get('/panel/ingresar');
            expect(page.status, page.text).to.equal(200);
            return agent.post('/panel/ingresar', { email, password });
        },
        setCookies: (response) => response.headers.getSetCookie()
    };

    return agent;
};

// A form refused (403, the panel's page) without a CSRF token and with another browser's.
export const expectCsrfRefused = async (server: TestServer, agent: PanelAgent, path: string, fields: Record<string, string>): Promise<void> => {

    const missing = await agent.post(path, fields, { crumb: false });
    expect(missing.status, `${path} without a CSRF token`).to.equal(403);
    expect(missing.text).to.contain(panelTexts.formExpired);

    // This browser's cookies, another browser's token.
    const other = panelAgent(server);
    await other.get('/panel/ingresar');
    const cookie = [...agent.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const foreign = await server.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ ...fields, 'arcasync-crumb': other.cookies.get('arcasync-crumb')! }).toString()
    });
    expect(foreign.status, `${path} with another browser's CSRF token`).to.equal(403);
};
