import { messages } from '../../../core/domain/messages.js';
import type { AuthorityFailureKind } from '../../../core/ports/authority-client.js';
import { AuthorityFailure } from '../../../core/ports/authority-client.js';

// A typed failure with the Spanish message of its kind and a short technical detail (never a
// credential, never page content beyond a few characters).
export const failure = (kind: AuthorityFailureKind, detail?: string): AuthorityFailure => {

    return new AuthorityFailure(kind, detail ? `${messages.authority[kind]} (${detail})` : messages.authority[kind]);
};

export const isAuthorityFailure = (err: unknown): err is AuthorityFailure => err instanceof AuthorityFailure;
