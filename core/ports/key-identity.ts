import type { Cuit } from '../domain/cuit.js';

// A clave fiscal's identity (core/domain/key-identity.ts) under the installation's own secret.
export interface KeyIdentity {
    of(loginCuit: Cuit, plaintext: string): Promise<string>;
}
