import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type { Logger } from 'pino';
import { createLogger } from '../../app/logger.js';

// Every test server logs, at debug level, to one file per test process (a parallel run has
// several worker processes; side by side they would cut into each other's lines): the run's
// logs are test-artifacts/test-run/*.log, and the run checks that no secret reached them (see
// contract-hooks.ts).

export const runLogDir = 'test-artifacts/test-run';

// Test files may load this module twice (through ESM and through CommonJS): the logger lives
// on the process, not on the module, so every server of the process writes to the same file.
const processState = globalThis as typeof globalThis & { arcasyncRunLog?: { logger: Logger | null } };
processState.arcasyncRunLog ??= { logger: null };

const internals = {
    state: processState.arcasyncRunLog,

    // What a leaked secret looks like: an API token, any bearer value, an unredacted
    // credential field, a request's raw bytes.
    leaks: [
        { name: 'token de API', pattern: /asy_[A-Za-z0-9_-]{43}/ },
        // An invitation link's token (the route is logged by its pattern, `{token}`).
        { name: 'enlace de invitación', pattern: /\/panel\/invitacion\/[A-Za-z0-9_-]{43}/ },
        // A credential after "Bearer", not a challenge's parameters (Bearer resource_metadata="…").
        { name: 'valor de Authorization', pattern: /Bearer\s+(?![a-z_]+=)(?!\[oculto\])[A-Za-z0-9._~+/-]{8,}/i },
        { name: 'clave_arca', pattern: /"clave_arca"\s*:\s*"(?!\[oculto\])/ },
        { name: 'password', pattern: /"password"\s*:\s*"(?!\[oculto\])/ },
        { name: 'bytes de una solicitud (rawPacket)', pattern: /"rawPacket"\s*:\s*(?!"\[oculto\]")/ }
    ],

    // Text that may be an encoding of other text: lists of byte values ("66,101,…", JSON
    // arrays, Buffer's JSON), hex, base64; each is decoded and searched too.
    encoded: [
        { name: 'bytes', pattern: /\d{1,3}(?:\s*,\s*\d{1,3}){7,}/g, decode: (text: string) => Buffer.from(text.split(',').map(Number)) },
        { name: 'hex', pattern: /(?:[0-9a-fA-F]{2}){8,}/g, decode: (text: string) => Buffer.from(text, 'hex') },
        { name: 'base64', pattern: /[A-Za-z0-9+/_-]{12,}={0,2}/g, decode: (text: string) => Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64') }
    ],

    inText(text: string, secrets: readonly string[]): string[] {

        const found = internals.leaks.filter((leak) => leak.pattern.test(text)).map((leak) => leak.name);
        found.push(...secrets.filter((secret) => text.includes(secret)).map(() => 'secreto enviado'));
        return found;
    }
};

// The secrets (by kind) a log text holds: the known patterns and the given secret values, as
// written or in any of the encodings above.
export const logLeaks = (text: string, secrets: readonly string[] = []): string[] => {

    const found = new Set(internals.inText(text, secrets));
    for (const encoding of internals.encoded) {
        for (const match of text.matchAll(encoding.pattern)) {
            const bytes = encoding.decode(match[0]);
            for (const decoded of [bytes.toString('utf8'), bytes.toString('latin1')]) {
                for (const name of internals.inText(decoded, secrets)) {
                    found.add(`${name} (${encoding.name})`);
                }
            }
        }
    }

    return [...found];
};

// This process's log file.
const processLogPath = (pid = process.pid): string => join(runLogDir, `${pid}.log`);

export const runLogger = (): Logger => {

    if (!internals.state.logger) {
        mkdirSync(runLogDir, { recursive: true });
        writeFileSync(processLogPath(), '');
        internals.state.logger = createLogger({ level: 'debug', destination: pino.destination({ dest: processLogPath(), sync: true, append: true }) });
    }

    return internals.state.logger;
};

export const processLogged = (): boolean => internals.state.logger !== null;

// Before a run: no log of an earlier one.
export const clearRunLogs = (): void => rmSync(runLogDir, { recursive: true, force: true });

// The processes that wrote a log in this run.
export const runLogPids = (): number[] => {

    try {
        return readdirSync(runLogDir).filter((name) => /^\d+\.log$/.test(name)).map((name) => Number.parseInt(name, 10)).sort((a, b) => a - b);
    }
    catch {
        return [];
    }
};

// The secrets in the lines of a process's log from byte `from` on (what an earlier check has
// not seen), each named by file and line; `checked`: where the next check starts.
export const runLogLeaks = (pid: number, from = 0): { leaks: string[]; lines: number; checked: number } => {

    const path = processLogPath(pid);
    const bytes = readFileSync(path);
    const seen = bytes.subarray(0, from).toString('utf8').split('\n').length - 1;
    const lines = bytes.subarray(from).toString('utf8').split('\n');
    const leaks = lines.flatMap((line, index) => logLeaks(line).map((name) => `${path}, línea ${seen + index + 1}: ${name}`));
    return { leaks, lines: seen + lines.filter(Boolean).length, checked: bytes.length };
};
