// Authenticated encryption of stored credentials (the taxpayer's clave_arca). The sealed form
// names the key it was sealed with, so keys can rotate: `seal` always uses the current key,
// `open` any key of the keyring.
export interface SecretBox {
    seal(plaintext: string): string;
    // Throws when the value was altered or its key is not in the keyring.
    open(sealed: string): string;
    // The id of the key `seal` uses now.
    readonly keyId: string;
    // The id of the key a sealed value was sealed with (null when it is not a sealed value).
    keyIdOf(sealed: string): string | null;
}
