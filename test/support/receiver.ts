import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// A webhook receiver as an integrator runs one: a real HTTP server on an ephemeral port of the
// loopback that keeps every call, and the README's verification recipe as a reader copies it.

export interface Received {
    path: string;
    headers: IncomingHttpHeaders;
    body: string;
}

export interface Receiver {
    url: string;
    calls: Received[];
    close(): Promise<void>;
}

export type Verify = (secret: string, header: string, body: string, toleranceSeconds?: number) => boolean;

const internals = {
    root: fileURLToPath(new URL('../..', import.meta.url))
};

// What it answers is decided per call.
export const startReceiver = async (
    answer: (call: Received, index: number) => { status: number; delayMs?: number } = () => ({ status: 200 })
): Promise<Receiver> => {

    const calls: Received[] = [];
    const server: Server = createServer((req, res) => {

        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {

            const call = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
            const index = calls.push(call) - 1;
            const { status, delayMs } = answer(call, index);
            setTimeout(() => res.writeHead(status).end(), delayMs ?? 0);
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        calls,
        close: () => new Promise<void>((resolve) => {

            server.closeAllConnections();
            server.close(() => resolve());
        })
    };
};

// The README's recipe (its `<!-- webhook-verify -->` block), loaded as a module.
export const readmeRecipe = async (): Promise<Verify> => {

    const readme = readFileSync(join(internals.root, 'README.md'), 'utf8');
    const code = /<!-- webhook-verify -->\s*```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(code, 'README: the verification recipe').to.be.a('string');
    expect(code!.trim().split('\n').length).to.be.at.most(12);
    const dir = mkdtempSync(join(tmpdir(), 'arcasync-recipe-'));
    const file = join(dir, 'verify.mjs');
    writeFileSync(file, code!);
    try {
        return (await import(pathToFileURL(file).href)).verify;
    }
    finally {
        // Loaded: the copy is not needed again.
        rmSync(dir, { recursive: true, force: true });
    }
};

export const waitUntil = async (check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> => {

    const end = Date.now() + ms;
    while (!await check()) {
        if (Date.now() > end) {
            throw new Error(`timed out waiting for ${what}`);
        }

        await new Promise((resolve) => setTimeout(resolve, 25));
    }
};
