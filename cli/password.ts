import type { CliIo } from './io.js';
import { cliMessages } from './messages.js';
import { failure } from './run.js';

// A password for `user set-password`: typed at a prompt without echo on a terminal, twice, the
// second to confirm (nobody sees a typing slip); otherwise the whole of stdin (a pipe or a
// file), its final newline dropped. Never an argument unless the caller chose --password.

const internals = {
    async piped(io: CliIo): Promise<string> {

        let text = '';
        for await (const chunk of io.stdin) {
            text += chunk.toString();
        }

        return text.replace(/\r?\n$/, '');
    },

    // Raw mode: every key arrives as typed and nothing is echoed; Enter ends, Backspace
    // erases, Ctrl-C and Ctrl-D give up.
    typed(io: CliIo, prompt: string): Promise<string> {

        const stdin = io.stdin;
        return new Promise((resolve, reject) => {

            let typed = '';
            const done = (err: Error | null) => {

                stdin.off('data', onData);
                stdin.setRawMode!(false);
                stdin.pause();
                io.stderr.write('\n');
                return err ? reject(err) : resolve(typed);
            };

            const onData = (chunk: Buffer | string) => {

                for (const char of chunk.toString()) {
                    if (char === '\r' || char === '\n') {
                        return done(null);
                    }

                    if (char === '\u0003' || char === '\u0004') {
                        return done(failure('Contraseña no cambiada: se canceló.'));
                    }

                    if (char === '\u007f' || char === '\b') {
                        typed = [...typed].slice(0, -1).join('');
                    }
                    else if (char >= ' ') {
                        typed += char;
                    }
                }
            };

            io.stderr.write(prompt);
            stdin.setRawMode!(true);
            stdin.on('data', onData);
            stdin.resume();
        });
    }
};

// `check` refuses a first typing that cannot do (too short) before asking for it again.
export const readNewPassword = async (io: CliIo, prompts: { first: string; again: string }, check: (password: string) => void): Promise<string> => {

    if (!io.stdin.isTTY || !io.stdin.setRawMode) {
        return internals.piped(io);
    }

    const first = await internals.typed(io, prompts.first);
    check(first);
    if (await internals.typed(io, prompts.again) !== first) {
        throw failure(cliMessages.passwordMismatch);
    }

    return first;
};
