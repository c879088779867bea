import type { Cuit } from '../domain/cuit.js';

// A clave fiscal's identity (core/domain/key-identity.ts) under the installation's own secret.
export interface KeyIdentity {
    // Resolves when identities can be computed; otherwise throws what `of` would (a use case
    // checks it before it consumes anything, such as a pending import).
    ready(): Promise<void>;
    of(loginCuit: Cuit, plaintext: string): Promise<string>;
}
