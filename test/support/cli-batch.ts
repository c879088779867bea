import { runInProcess } from './cli.js';
import type { BatchCommand, CliResult } from './cli.js';

// Several command lines through runCli, one after the other, in this one process: what each
// wrote on its own streams and its exit code, as one JSON line on stdout. Run as a process of
// its own (runCliBatch in cli.ts), so that anything written beside the commands' streams (a
// driver's console line, a log line) reaches the process's real stderr, which the caller sees.
// One process start for a list of commands instead of one each.

const internals = {
    async read(): Promise<BatchCommand[]> {

        let text = '';
        for await (const chunk of process.stdin) {
            text += String(chunk);
        }

        return JSON.parse(text) as BatchCommand[];
    }
};

const results: CliResult[] = [];
for (const { argv, env } of await internals.read()) {
    results.push(await runInProcess(argv, { env: env ?? process.env, cwd: process.cwd() }));
}

process.stdout.write(`${JSON.stringify(results)}\n`);
process.exit(0);
