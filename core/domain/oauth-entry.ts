import { hashToken } from './token.js';

// How the authorization server's entries are kept: by the SHA-256 digest of their id, never
// the id itself, because the id of a token is the token (a database dump must not let anyone
// act). For the kinds whose id is a bearer credential, the payload's own copy of the id
// (`jti`) is left out too, and given back from the id presented on lookup.

export const credentialKinds: ReadonlySet<string> = new Set([
    'AccessToken',
    'AuthorizationCode',
    'RefreshToken',
    'ClientCredentials',
    'DeviceCode',
    'BackchannelAuthenticationRequest',
    'InitialAccessToken',
    'RegistrationAccessToken',
    'PushedAuthorizationRequest'
]);

export const storedEntryId = (id: string): string => hashToken(id);
