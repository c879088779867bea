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
    // credential field.
    leaks: [
        { name: 'token de API', pattern: /asy_[A-Za-z0-9_-]{43}/ },
        // A credential after "Bearer", not a challenge's parameters (Bearer resource_metadata="…").
        { name: 'valor de Authorization', pattern: /Bearer\s+(?![a-z_]+=)[A-Za-z0-9._~+/-]{8,}/i },
        { name: 'clave_arca', pattern: /"clave_arca"\s*:\s*"(?!\[oculto\])/ },
        { name: 'password', pattern: /"password"\s*:\s*"(?!\[oculto\])/ }
    ]
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
    const found: string[] = [];
    for (const [index, line] of lines.entries()) {
        for (const leak of internals.leaks) {
            if (leak.pattern.test(line)) {
                found.push(`línea ${index + 1}: ${leak.name}`);
            }
        }
    }

    return found;
};

export const runLogLineCount = (): number => (internals.state.logger ? readFileSync(runLogPath, 'utf8').split('\n').filter(Boolean).length : 0);
