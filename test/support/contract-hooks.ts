import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { takeCoverage } from 'node:v8';
import { builtCli } from './build.js';
import type { ContractTally } from './contract.js';
import { contractSummary, contractTally, takeViolations } from './contract.js';
import { databasesNotice, dropTemplates } from './databases.js';
import { clearRunLogs, processLogged, runLogDir, runLogLeaks, runLogPids } from './run-log.js';

// The run's fixtures and root hooks (see .mocharc.json). `npm test` runs the files in worker
// processes (see .mocharc.suite.cjs): the global setup and teardown run once, in the main
// process, and the root hooks in every worker, around each file. A response that breaks the
// OpenAPI contract fails the test during which it was sent; a secret in the logs fails the
// file that wrote it; the run ends with what the suite checked, added up over the processes.

interface ProcessTally {
    logChecked: number;                // bytes of this process's log already checked for secrets
    leaks: string[];                   // the secrets found in them
    contract: ContractTally;
    files: FileTime[];                 // how long each file this process ran took, hooks included
}

interface FileTime {
    file: string;
    ms: number;
}

const internals = {
    logChecked: 0,
    leaks: [] as string[],
    files: [] as FileTime[],
    fileStarted: 0,
    // How many of the slowest files the run's summary names: what to trim first when the run
    // grows toward CI's limit (docs/development.md).
    slowestShown: 8,

    // The file a worker's root suite came from (its first suite's; a worker runs one at a time).
    fileOf(suite: Mocha.Suite | undefined): string {

        const file = suite?.file ?? suite?.suites.map((child) => internals.fileOf(child)).find(Boolean);
        return file ? relative(process.cwd(), file) : '';
    },

    tallyPath: (pid: number | string): string => join(runLogDir, `${pid}.json`),

    tallies(): Map<number, ProcessTally> {

        const tallies = new Map<number, ProcessTally>();
        for (const name of (existsSync(runLogDir) ? readdirSync(runLogDir) : []).filter((entry) => /^\d+\.json$/.test(entry))) {
            tallies.set(Number.parseInt(name, 10), JSON.parse(readFileSync(join(runLogDir, name), 'utf8')) as ProcessTally);
        }

        return tallies;
    },

    leakError: (leaks: string[]): Error => new Error(`Secretos en los logs de la corrida:\n  ${leaks.slice(0, 20).join('\n  ')}`)
};

// The commands and workers the suites start inherit the suites' made-up CUITs (test/support/app.ts).
process.env.SYNC_CHECK_DIGITS ??= '0';

export const mochaGlobalSetup = (): void => {

    clearRunLogs();
    const notice = databasesNotice();
    if (notice) {
        process.stdout.write(notice);
    }

    // A stale dist/ is rebuilt here, once, before any test (or worker) runs the binary.
    builtCli();
};

export const mochaHooks = {
    beforeAll() {

        internals.fileStarted = Date.now();
    },

    afterEach() {

        const violations = takeViolations();
        if (violations.length) {
            throw new Error(`Respuestas fuera del contrato OpenAPI:\n  ${violations.join('\n  ')}`);
        }
    },

    // After each file (in a worker) or after the run (in a single process): the lines this
    // process logged since the last check hold no token, key or Authorization value; what it
    // has checked so far is left for the teardown to add up.
    afterAll(this: Mocha.Context) {

        internals.files.push({ file: internals.fileOf(this.test?.parent), ms: Date.now() - internals.fileStarted });
        let leaks: string[] = [];
        if (processLogged()) {
            const log = runLogLeaks(process.pid, internals.logChecked);
            internals.logChecked = log.checked;
            leaks = log.leaks;
            internals.leaks.push(...leaks);
        }

        // Under c8 (`npm run test:coverage`): mocha ends its worker processes with a signal,
        // which writes no coverage, so each worker writes what it ran after every file.
        if (process.env.NODE_V8_COVERAGE) {
            takeCoverage();
        }

        const tally: ProcessTally = { logChecked: internals.logChecked, leaks: internals.leaks, contract: contractTally(), files: internals.files };
        mkdirSync(runLogDir, { recursive: true });
        writeFileSync(internals.tallyPath(process.pid), JSON.stringify(tally));
        if (leaks.length) {
            throw internals.leakError(leaks);
        }
    }
};

// Once all the files ran: whatever a process logged after its last check is checked here
// (a whole run's logs, every line, hold no secret), then the summary of the run.
export const mochaGlobalTeardown = async (): Promise<void> => {

    await dropTemplates();

    const tallies = internals.tallies();
    const leaks = [...tallies.values()].flatMap((tally) => tally.leaks);
    let lines = 0;
    for (const pid of runLogPids()) {
        const log = runLogLeaks(pid, tallies.get(pid)?.logChecked ?? 0);
        leaks.push(...log.leaks);
        lines += log.lines;
    }

    if (leaks.length) {
        // Mocha ends the run on a teardown's error, but in a single process says nothing of it.
        const error = internals.leakError(leaks);
        process.stderr.write(`\n  ${error.message}\n`);
        process.exitCode = 1;
        throw error;
    }

    if (lines) {
        process.stdout.write(`\n  Logs de la corrida: ${lines} líneas en ${runLogDir}/, sin tokens, claves ni valores de Authorization.\n`);
    }

    const slowest = [...tallies.values()].flatMap((tally) => tally.files ?? []).sort((a, b) => b.ms - a.ms).slice(0, internals.slowestShown);
    if (slowest.length > 1) {
        process.stdout.write(`\n  Archivos más lentos:\n${slowest.map(({ file, ms }) => `    ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`).join('\n')}\n`);
    }

    const { checked, unexercised } = contractSummary([...tallies.values()].map((tally) => tally.contract));
    if (checked) {
        process.stdout.write(`\n  Contrato OpenAPI: ${checked} respuestas validadas contra /openapi.json.\n`);
        if (unexercised.length) {
            process.stdout.write(`  Respuestas documentadas que ninguna prueba produjo: ${unexercised.length}\n`);
        }
    }
};
