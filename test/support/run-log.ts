import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import pino from 'pino';
import type { Logger } from 'pino';
import { createLogger } from '../../app/logger.js';

// Every test server logs, at debug level, to one file for the whole run; at the end the run
// checks that no secret reached it (see contract-hooks.ts).

export const runLogPath = 'test-artifacts/test-run.log';

const internals = {
    logger: null as Logger | null,

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

    if (!internals.logger) {
        mkdirSync('test-artifacts', { recursive: true });
        writeFileSync(runLogPath, '');
        internals.logger = createLogger({ level: 'debug', destination: pino.destination({ dest: runLogPath, sync: true, append: true }) });
    }

    return internals.logger;
};

export const runLogLeaks = (): string[] => {

    if (!internals.logger) {
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

export const runLogLineCount = (): number => (internals.logger ? readFileSync(runLogPath, 'utf8').split('\n').filter(Boolean).length : 0);
