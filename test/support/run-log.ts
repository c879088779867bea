import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import pino from 'pino';
import type { Logger } from 'pino';
import { createLogger } from '../../app/logger.js';

// Every test server logs, at debug level, to one file for the whole run; at the end the run
// checks that no secret reached it (see contract-hooks.ts).

export const runLogPath = 'test-artifacts/test-run.log';

// Test files may load this module twice (through ESM and through CommonJS): the logger lives
// on the process, not on the module, so the file is truncated once and every server writes
// to the same log.
const processState = globalThis as typeof globalThis & { arcasyncRunLog?: { logger: Logger | null } };
processState.arcasyncRunLog ??= { logger: null };

const internals = {
    state: processState.arcasyncRunLog,

    // What a leaked secret looks like: an API token, any bearer value, an unredacted
    // credential field, a request's raw bytes.
    leaks: [
        { name: 'token de API', pattern: /asy_[A-Za-z0-9_-]{43}/ },
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

export const runLogger = (): Logger => {

    if (!internals.state.logger) {
        mkdirSync('test-artifacts', { recursive: true });
        writeFileSync(runLogPath, '');
        internals.state.logger = createLogger({ level: 'debug', destination: pino.destination({ dest: runLogPath, sync: true, append: true }) });
    }

    return internals.state.logger;
};

export const runLogLeaks = (): string[] => {

    if (!internals.state.logger) {
        return [];
    }

    const lines = readFileSync(runLogPath, 'utf8').split('\n');
    return lines.flatMap((line, index) => logLeaks(line).map((name) => `línea ${index + 1}: ${name}`));
};

export const runLogLineCount = (): number => (internals.state.logger ? readFileSync(runLogPath, 'utf8').split('\n').filter(Boolean).length : 0);
