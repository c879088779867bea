import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { withoutSessionIds } from '../core/domain/session-ids.js';
import { stderrLogStream } from './log-stream.js';

// Structured JSON logs (pino). Every line is checked as it leaves, whoever logged it and
// whatever serializer ran: no request's bytes, headers or body (a parser error's `rawPacket`,
// a Buffer, an array of bytes), no credential field at any depth, no token or Bearer value
// inside any text. One mechanism, so the names it hides are listed once.

const internals = {
    censor: '[oculto]',

    // What a request carries, by field name: never logged, at any depth.
    requestContent: new Set(['rawpacket', 'headers', 'rawheaders', 'body', 'payload', 'rawbody', 'authorization', 'cookie', 'cookies', 'set-cookie']),
    credentials: new Set(['clave_arca', 'password', 'token', 'access_token', 'refresh_token', 'id_token', 'client_secret', 'secret']),

    secretsInText: [
        { pattern: /asy_[A-Za-z0-9_-]+/g, replacement: 'asy_[oculto]' },
        // A credential after "Bearer", not a challenge's parameters (Bearer resource_metadata="…").
        { pattern: /(Bearer\s+)(?![a-z_]+=)[^\s",;]+/gi, replacement: '$1[oculto]' }
    ],

    isBytes: (value: unknown[]): boolean => value.length >= 8 && value.every(
        (item) => Number.isInteger(item) && (item as number) >= 0 && (item as number) <= 255
    ),

    // The line's value with every request content and secret replaced; the same value when
    // there was nothing to replace.
    clean(value: unknown): unknown {

        if (typeof value === 'string') {
            let text = value;
            for (const { pattern, replacement } of internals.secretsInText) {
                text = text.replace(pattern, replacement);
            }

            // The authority's session ids (;jsessionid=, its cookies) too.
            const clean = withoutSessionIds(text);
            return clean === value ? value : clean;
        }

        if (Array.isArray(value)) {
            if (internals.isBytes(value)) {
                return internals.censor;
            }

            const items = value.map(internals.clean);
            return items.some((item, index) => item !== value[index]) ? items : value;
        }

        if (value === null || typeof value !== 'object') {
            return value;
        }

        const record = value as Record<string, unknown>;
        if (record.type === 'Buffer' && Array.isArray(record.data)) {
            return internals.censor;
        }

        let changed = false;
        const copy: Record<string, unknown> = {};
        for (const [key, item] of Object.entries(record)) {
            const lower = key.toLowerCase();
            const hidden = internals.requestContent.has(lower) || internals.credentials.has(lower);
            copy[key] = hidden && item !== internals.censor ? internals.censor : internals.clean(item);
            changed ||= copy[key] !== item;
        }

        return changed ? copy : value;
    },

    line(text: string): string {

        if (!suspicious.test(text)) {
            return text;
        }

        let parsed: unknown;
        try {
            parsed = JSON.parse(text);
        }
        catch {
            return String(internals.clean(text));
        }

        const cleaned = internals.clean(parsed);
        return cleaned === parsed ? text : `${JSON.stringify(cleaned)}\n`;
    }
};

// Most lines (a request's, a job's) hold none of what `clean` hides: they leave unparsed.
const suspicious = new RegExp(`asy_|bearer|"(?:${[...internals.requestContent, ...internals.credentials].join('|')})"\\s*:|"Buffer"|\\[(?:\\d{1,3},){7}`, 'i');

export const createLogger = (options: { level: string; destination?: DestinationStream }): Logger => {

    return pino({
        level: options.level,
        base: { service: 'arcasync' },
        hooks: { streamWrite: internals.line }
    }, options.destination ?? stderrLogStream());
};

const loggers = new Map<string, Logger>();

// knex's own words through the process's logger (knex writes them to the console otherwise, a
// stack over ten lines), made on knex's first word: most processes never need it. A
// connection that cannot be made is reported by whoever asked for it (the request's 503, the
// command's one line): knex's notice of it is debug.
export const databaseLog = (level: string) => {

    const logger = () => {

        let existing = loggers.get(level);
        if (!existing) {
            existing = createLogger({ level });
            loggers.set(level, existing);
        }

        return existing;
    };
    const text = (message: unknown): string => (message instanceof Error ? message.message : typeof message === 'string' ? message : JSON.stringify(message));
    const notice = (message: unknown) => {

        const line = text(message);
        // What the command reports itself (its one line, or the server's log) is only debug here;
        // so is knex's advice on a held migration lock, which migrateLatest waits for.
        const reported = /^Acquire connection error|Unable to detect MySQL\/MariaDB version|^migration (file "[^"]*" )?failed|^Can't take lock to run migrations|^If you are sure migrations are not running/.test(line);
        logger()[reported ? 'debug' : 'warn']({ source: 'knex' }, reported ? line.split('\n')[0]! : line);
    };
    return {
        warn: notice,
        error: (message: unknown) => logger().error({ source: 'knex' }, text(message)),
        deprecate: (method: unknown, alternative: unknown) => logger().warn({ source: 'knex' }, `${String(method)} está obsoleto: usar ${String(alternative)}`),
        debug: (message: unknown) => logger().debug({ source: 'knex' }, text(message))
    };
};

export type { Logger };
