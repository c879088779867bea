import type { AuthorityFailureKind } from '../../../core/ports/authority-client.js';
import { AuthorityFailure } from '../../../core/ports/authority-client.js';

// A typed failure with the Spanish message of its kind and a short technical detail (never a
// credential, never page content beyond a few characters).
export const failure = (kind: AuthorityFailureKind, detail?: string, options: { touchedPassword?: boolean } = {}): AuthorityFailure => {

    return new AuthorityFailure(kind, detail, options);
};

export const isAuthorityFailure = (err: unknown): err is AuthorityFailure => err instanceof AuthorityFailure;

// The same failure, marked as having posted the password (a timeout or 5xx after it left).
export const passwordTouched = (err: unknown): unknown => {

    return isAuthorityFailure(err) && !err.touchedPassword ? new AuthorityFailure(err.kind, err.detail, { touchedPassword: true }) : err;
};
