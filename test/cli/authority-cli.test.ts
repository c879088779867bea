import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createArcaClient } from '../../adapters/authority/arca/index.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { builtCli } from '../support/build.js';
import { runCli } from '../support/cli.js';

// `arcasync authority simulate` in its own process (the built binary), used by the arca
// adapter through its URL.

describe('arcasync authority simulate', () => {

    it('serves the simulated authority until interrupted, and prints where', async () => {

        const child = spawn(
            process.execPath,
            [builtCli(), '--json', 'authority', 'simulate', '--port', '0', '--latency', '1'],
            { stdio: ['ignore', 'pipe', 'pipe'] }
        );
        const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        try {
            const first = await new Promise<string>((resolve, reject) => {

                let stdout = '';
                child.stdout.on('data', (chunk: Buffer) => {

                    stdout += chunk.toString();
                    if (stdout.includes('\n')) {
                        resolve(stdout.split('\n')[0]!);
                    }
                });
                child.once('exit', () => reject(new Error('exited before listening')));
            });
            const { url, port } = JSON.parse(first) as { url: string; port: number };
            expect(url).to.equal(`http://127.0.0.1:${port}`);

            const client = createArcaClient({ baseUrl: url, pollIntervalMs: 1 });
            const cuit = '20123456786' as Cuit;
            const session = await client.login({ loginCuit: cuit, password: 'x' });
            const registry = await session.taxpayer(cuit).registry();
            expect(registry).to.include.keys('monotributista', 'autonomo', 'categoria');
            await session.close();
        }
        finally {
            child.kill('SIGTERM');
        }

        expect(await exited).to.equal(0);
    });

    it('refuses bad options with one line on stderr', async () => {

        const result = await runCli('sqlite::memory:', ['authority', 'simulate', '--fail-5xx', '2']);
        expect(result.code).to.not.equal(0);
        expect(result.stderr.trim().split('\n')).to.have.length(1);
        expect(result.stderr).to.match(/--fail-5xx/);
    });
});
