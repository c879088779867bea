import type { CliIo } from './io.js';

// A yes-or-no question on a terminal (`migrate --down`): the answer is the line typed, echoed
// as usual; only "si" (or "sí") is yes. The end of input (Ctrl-D) is no; Ctrl-C ends the process.
export const confirmed = (io: CliIo, question: string): Promise<boolean> => {

    const stdin = io.stdin;
    return new Promise((resolve) => {

        let typed = '';
        const done = (answer: string) => {

            stdin.off('data', onData);
            stdin.off('end', onEnd);
            stdin.pause();
            resolve(/^s[ií]$/i.test(answer.trim()));
        };

        const onData = (chunk: Buffer | string) => {

            typed += chunk.toString();
            const end = typed.indexOf('\n');
            if (end !== -1) {
                done(typed.slice(0, end));
            }
        };

        const onEnd = () => done('');
        io.stderr.write(question);
        stdin.on('data', onData);
        stdin.on('end', onEnd);
        stdin.resume();
    });
};
