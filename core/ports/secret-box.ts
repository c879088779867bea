// Authenticated encryption of stored credentials (the taxpayer's clave_arca). The sealed form
// names the key it was sealed with, so keys can rotate.
export interface SecretBox {
    seal(plaintext: string): string;
    open(sealed: string): string;
    readonly keyId: string;
}
