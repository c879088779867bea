import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { signIn } from '../core/use-cases/sign-in.js';
import { builtCli } from './support/build.js';
import { testDatabases } from './support/databases.js';
import { seedAccount } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { startTestServer } from './support/server.js';

// `arcasync user set-password` typed at a real terminal (tmux): a prompt, nothing echoed, the
// password set. Skipped where tmux is not installed.

const internals = {
    socket: `arcasync-test-${randomBytes(4).toString('hex')}`,

    tmux: (...args: string[]): string => execFileSync('tmux', ['-L', internals.socket, ...args], { encoding: 'utf8' }),

    installed(): boolean {

        try {
            execFileSync('tmux', ['-V']);
            return true;
        }
        catch {
            return false;
        }
    },

    async until(what: string, check: () => boolean): Promise<void> {

        for (let i = 0; i < 600; i++) {
            if (check()) {
                return;
            }

            await sleep(50);
        }

        throw new Error(`the terminal never showed ${what}: ${internals.tmux('capture-pane', '-p', '-t', 'cli')}`);
    }
};

describe('user set-password at a terminal', function () {

    this.timeout(60_000);
    let server: TestServer;

    before(async function () {

        if (!internals.installed()) {
            this.skip();
        }

        server = await startTestServer(testDatabases()[0]!);
    });

    after(async () => {

        try {
            internals.tmux('kill-server');
        }
        catch {
            // no server left
        }

        await server?.stop();
    });

    it('prompts without echo and sets the typed password', async () => {

        const user = await seedAccount(server.app.ports);
        const email = (await server.app.ports.users.findById(user.userId))!.email;
        const password = 'clave-tecleada-en-terminal';
        const command = `"${process.execPath}" "${builtCli()}" user set-password --user ${user.userId}; echo "SALIDA:$?"; sleep 60`;
        internals.tmux('new-session', '-d', '-s', 'cli', '-x', '160', '-y', '20', '-e', `DATABASE_URL=${server.app.config.databaseUrl}`, command);
        const pane = () => internals.tmux('capture-pane', '-p', '-t', 'cli');

        await internals.until('the prompt', () => pane().includes(`Contraseña para el usuario ${user.userId}`));
        internals.tmux('send-keys', '-t', 'cli', '-l', `${password}x`);
        internals.tmux('send-keys', '-t', 'cli', 'BSpace', 'Enter');
        await internals.until('the exit code', () => pane().includes('SALIDA:'));

        const shown = pane();
        expect(shown).to.include(`Contraseña actualizada para el usuario ${user.userId}`);
        expect(shown).to.include('SALIDA:0');
        expect(shown).to.not.include(password.slice(0, 6));
        expect((await signIn(server.app.ports, { email, password }))?.id).to.equal(user.userId);
    });
});
