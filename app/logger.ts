import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';

// Structured JSON logs (pino). Secrets are redacted by path wherever they could appear: the
// Authorization header, cookies, and any field named like a credential.

export const redactedPaths = [
    'req.headers.authorization',
    'req.headers.cookie',
    'res.headers["set-cookie"]',
    'clave_arca', '*.clave_arca',
    'password', '*.password',
    'token', '*.token',
    'access_token', '*.access_token',
    'refresh_token', '*.refresh_token'
];

export const createLogger = (options: { level: string; destination?: DestinationStream }): Logger => {

    return pino({
        level: options.level,
        base: { service: 'arcasync' },
        redact: { paths: redactedPaths, censor: '[oculto]' }
    }, options.destination ?? pino.destination({ dest: 2, sync: false }));
};

export type { Logger };
