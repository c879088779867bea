import { expect } from 'chai';
import { runInProcess } from '../support/cli.js';

// cli/commands/index.ts loads only the command group a command line names. Named that way, with
// or without the program's --json before it, every command and subcommand answers exactly as it
// does with every group loaded (`help …`), and the listing keeps its order.

const internals = {
    // The names a help text lists under its commands heading (commander's layout, in Spanish).
    commandsOf(help: string): string[] {

        const section = help.split(/^Comandos:$/m)[1] ?? '';
        return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((match) => match[1]!).filter((name) => name !== 'help');
    }
};

describe('CLI: one command group loaded per command line', () => {

    it('every command and subcommand shows the same help named alone as with every group loaded', async () => {

        const top = await runInProcess(['--help']);
        expect(top.code).to.equal(0);
        const names = internals.commandsOf(top.stdout);
        expect(names.slice(0, 4)).to.deep.equal(['migrate', 'serve', 'demo', 'account']);
        expect(names).to.include.members(['user', 'token', 'tag', 'sync', 'resync', 'webhook', 'mcp', 'openapi', 'authority', 'secret']);

        for (const name of names) {
            const all = await runInProcess(['help', name]);
            const alone = await runInProcess(['--json', name, '--help']);
            expect(alone, name).to.deep.equal(all);
            for (const sub of internals.commandsOf(all.stdout)) {
                const subAll = await runInProcess(['help', name, sub]);
                expect(subAll.code, `${name} ${sub}`).to.equal(0);
                expect(await runInProcess([name, sub, '--help']), `${name} ${sub}`).to.deep.equal(subAll);
            }
        }
    });
});
