import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// When the real authority changes, we know the same day: every page or answer that matches no
// known shape is saved, redacted, with its system and step, and counted. Redaction removes the
// session's secrets (password, jwt, token, sign, seen values) wherever they appear, every
// hidden form value and JSON field named like a secret, and never keeps headers (cookies).

export interface Capture {
    system: string;                    // mcmp, sct, ccma, dfe, registry, login, portal
    step: string;                      // e.g. generarConsulta, P02_ctacte.asp
    url: URL;
    status: number;
    body: string;
    secrets: readonly string[];
}

export interface CapturedPage {
    system: string;
    step: string;
    file: string | null;               // null when no folder is configured
    at: string;
}

export interface Diagnostics {
    capture(capture: Capture): CapturedPage;
    readonly captured: number;
}

const internals = {
    secretNames: 'jwt|token|sign|password|clave|F1:password|javax\\.faces\\.ViewState|SESSION_TOKEN|AFIPSID|JSESSIONID',
    redacted: '[redactado]',

    redact(text: string, secrets: readonly string[]): string {

        let result = text;
        for (const secret of secrets) {
            if (secret && secret.length >= 4) {
                result = result.split(secret).join(internals.redacted);
                // The same value URL-encoded (a token in a query or a form).
                const encoded = encodeURIComponent(secret);
                if (encoded !== secret) {
                    result = result.split(encoded).join(internals.redacted);
                }
            }
        }

        const names = internals.secretNames;
        return result
            .replace(new RegExp(`(<input\\b[^>]*\\bname\\s*=\\s*["'](?:${names})["'][^>]*\\bvalue\\s*=\\s*["'])[^"']*`, 'gi'), `$1${internals.redacted}`)
            .replace(new RegExp(`(<input\\b[^>]*\\bvalue\\s*=\\s*["'])[^"']*(["'][^>]*\\bname\\s*=\\s*["'](?:${names})["'])`, 'gi'), `$1${internals.redacted}$2`)
            .replace(/(<input\b[^>]*\btype\s*=\s*["']hidden["'][^>]*\bvalue\s*=\s*["'])[^"']*/gi, `$1${internals.redacted}`)
            .replace(new RegExp(`("(?:${names})"\\s*:\\s*")[^"]*`, 'gi'), `$1${internals.redacted}`)
            .replace(new RegExp(`([?&](?:${names})=)[^&\\s"'<]*`, 'gi'), `$1${internals.redacted}`)
            .replace(/data:image\/[a-z]+;base64,[A-Za-z0-9+/=\s]+/gi, `data:image;base64,${internals.redacted}`);
    },

    slug: (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60)
};


export const createDiagnostics = (options: { dir: string | null; now?: () => Date; onCapture?: (page: CapturedPage) => void }): Diagnostics => {

    let captured = 0;
    return {
        get captured() {

            return captured;
        },

        capture(input) {

            captured++;
            const at = (options.now?.() ?? new Date()).toISOString();
            let file: string | null = null;
            if (options.dir) {
                try {
                    mkdirSync(options.dir, { recursive: true });
                    const name = `${at.replace(/[:.]/g, '-')}-${internals.slug(input.system)}-${internals.slug(input.step)}-${captured}.txt`;
                    file = join(options.dir, name);
                    const url = internals.redact(`${input.url.origin}${input.url.pathname}${input.url.search}`, input.secrets);
                    writeFileSync(file, `sistema: ${input.system}\npaso: ${input.step}\nurl: ${url}\nHTTP ${input.status}\n\n${internals.redact(input.body.slice(0, 200_000), input.secrets)}`, { mode: 0o600 });
                }
                catch {
                    file = null;                       // diagnostics never break a sync
                }
            }

            const page = { system: input.system, step: input.step, file, at };
            options.onCapture?.(page);
            return page;
        }
    };
};

// What the diagnostics folder holds: how many captures, and the latest, for `sync status`.
export const diagnosticsSummary = (dir: string): { dir: string; captured: number; latest: string | null } => {

    let files: string[] = [];
    try {
        files = readdirSync(dir).filter((name) => name.endsWith('.txt')).sort();
    }
    catch {
        files = [];
    }

    return { dir, captured: files.length, latest: files.at(-1) ?? null };
};

export const diagnosticsDirOf = (dataDir: string): string => join(dataDir, 'diagnostics');
