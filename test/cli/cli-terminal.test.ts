import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { signIn } from '../../core/use-cases/sign-in.js';
import { builtCli } from '../support/build.js';
import { testDatabases } from '../support/databases.js';
import { seedAccount } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';

// `arcasync user set-password` typed at a real terminal (tmux): a prompt saying the minimum,
// nothing echoed, the password typed again to confirm, then set; a second typing that differs
// changes nothing. Skipped where tmux is not installed.

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

    const started = async (userId: number, session: string): Promise<() => string> => {

        const command = `"${process.execPath}" "${builtCli()}" user set-password --user ${userId}; echo "SALIDA:$?"; sleep 60`;
        internals.tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '20', '-e', `DATABASE_URL=${server.app.config.databaseUrl}`, command);
        const pane = () => internals.tmux('capture-pane', '-p', '-t', session);
        await internals.until('the prompt', () => pane().includes(`Contraseña para el usuario ${userId} (al menos 10 caracteres; no se muestra):`));
        return pane;
    };

    const typed = async (session: string, pane: () => string, keys: string, what: string) => {

        internals.tmux('send-keys', '-t', session, '-l', keys);
        internals.tmux('send-keys', '-t', session, 'BSpace', 'Enter');
        await internals.until(what, () => pane().includes(what));
    };

    it('prompts twice without echo, saying the minimum, and sets the typed password', async () => {

        const user = await seedAccount(server.app.ports);
        const email = (await server.app.ports.users.findById(user.userId))!.email;
        const password = 'clave-tecleada-en-terminal';
        const pane = await started(user.userId, 'cli');

        await typed('cli', pane, `${password}x`, 'Repetila para confirmar:');
        await typed('cli', pane, `${password}y`, 'SALIDA:');

        const shown = pane();
        expect(shown).to.include(`Contraseña actualizada para el usuario ${user.userId}`);
        expect(shown).to.include('SALIDA:0');
        expect(shown).to.not.include(password.slice(0, 6));
        expect((await signIn(server.app.ports, { email, password }))?.id).to.equal(user.userId);
    });

    it('changes nothing when the second typing differs, and says so in Spanish', async () => {

        const user = await seedAccount(server.app.ports);
        const email = (await server.app.ports.users.findById(user.userId))!.email;
        const password = 'primera-clave-tecleada';
        const pane = await started(user.userId, 'distinta');

        await typed('distinta', pane, `${password}x`, 'Repetila para confirmar:');
        await typed('distinta', pane, 'otra-clave-distintax', 'SALIDA:');

        const shown = pane();
        expect(shown).to.include('Error: Las dos contraseñas no coinciden: la contraseña no cambió. Volvé a ejecutar el comando.');
        expect(shown).to.include('SALIDA:1');
        expect(shown).to.not.include('Contraseña actualizada');
        expect(await signIn(server.app.ports, { email, password })).to.equal(null);
    });

    it('refuses a password under the minimum before asking for it again', async () => {

        const user = await seedAccount(server.app.ports);
        const pane = await started(user.userId, 'corta');

        await typed('corta', pane, 'cortax', 'SALIDA:');

        const shown = pane();
        expect(shown).to.include('Error: La contraseña debe tener al menos 10 caracteres.');
        expect(shown).to.include('SALIDA:1');
        expect(shown).to.not.include('Repetila');
    });
});
