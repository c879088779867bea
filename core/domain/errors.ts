import { messages } from './messages.js';

// One error type for every rule the core enforces; front ends map `kind` to their own
// vocabulary (HTTP status, MCP tool error, CLI exit code) and show `message` as is.

export type DomainErrorKind =
    | 'invalid'
    | 'unauthenticated'
    | 'forbidden'
    | 'not_found'
    | 'conflict'
    | 'rate_limited'
    | 'unsupported_media_type'
    // The service cannot do this now for a reason only its operator can fix.
    | 'unavailable';

export interface RateLimitInfo {
    readonly limit: number;
    readonly resetAt: number;            // Unix seconds when the exceeded limit is released
    readonly retryAfterSeconds: number;
}

export class DomainError extends Error {

    readonly kind: DomainErrorKind;
    readonly rateLimit: RateLimitInfo | undefined;
    // An invalid input's messages by the field they concern (a form shows each beside its
    // field); the joined `message` says them all.
    readonly fields: Readonly<Record<string, string>>;
    // An unavailable service's note for its operator (what to do), for the log: never shown
    // to the user.
    operatorNote: string | null = null;

    constructor(kind: DomainErrorKind, message: string, rateLimit?: RateLimitInfo, fields: Readonly<Record<string, string>> = {}) {

        super(message);
        this.name = 'DomainError';
        this.kind = kind;
        this.rateLimit = rateLimit;
        this.fields = fields;
    }
}

export const isDomainError = (err: unknown): err is DomainError => err instanceof DomainError;

// Several failing fields are joined in one message, as the API does (docs/api.md, Errors).
export const invalid = (fieldMessages: readonly string[], fields: Readonly<Record<string, string>> = {}): DomainError => {

    const unique = [...new Set(fieldMessages)];
    return new DomainError('invalid', unique.join(' '), undefined, fields);
};

export const notFound = (): DomainError => new DomainError('not_found', messages.notFound);
export const unauthenticated = (): DomainError => new DomainError('unauthenticated', messages.unauthenticated);
export const forbidden = (message: string): DomainError => new DomainError('forbidden', message);
export const conflict = (message: string): DomainError => new DomainError('conflict', message);
export const unavailable = (message: string, operatorNote: string): DomainError => {

    const err = new DomainError('unavailable', message);
    err.operatorNote = operatorNote;
    return err;
};
export const rateLimited = (info: RateLimitInfo): DomainError => new DomainError('rate_limited', messages.rateLimited, info);
