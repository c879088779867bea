import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withoutSessionIds } from '../../../core/domain/session-ids.js';

// When the real authority changes, we know the same day: every page or answer that matches no
// known shape is saved, redacted, with its system and step, and counted. Redaction keeps the
// page's structure and removes what a diagnosis does not need: the session's secrets
// (password, jwt, token, sign, every cookie value it received) in clear, URL-encoded, base64
// and hex forms; every hidden form value and JSON field named like a secret; ;jsessionid= and
// session cookies (withoutSessionIds); headers are never kept. Personal data is masked letter
// by letter: e-mail addresses, names written in capitals as ARCA writes them ("GONZALEZ
// MARIA", "EMPRESA DEMO SRL"), and what follows a "Domicilio"/"Dirección" label.

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

    // The forms a secret may take in a page or a URL.
    forms(secret: string): string[] {

        const bytes = Buffer.from(secret, 'utf8');
        return [
            secret,
            encodeURIComponent(secret),
            bytes.toString('base64'),
            bytes.toString('base64url'),
            bytes.toString('hex'),
            bytes.toString('hex').toUpperCase()
        ]
            .filter((form, index, all) => form.length >= 4 && all.indexOf(form) === index);
    },

    // Words in capitals that structure ARCA's pages, not anybody's name.
    vocabulary: new Set(['ARCA', 'AFIP', 'CUIT', 'CUIL', 'IVA', 'REPRESENTANDO', 'TU', 'TOKEN', 'HARDWARE-TOKEN', 'AFIP-O', 'DDJJ', 'SCT', 'CCMA', 'DFE', 'PDF', 'CSV', 'HTTP', 'OK', 'A',
        'MONOTRIBUTO', 'AUTONOMO', 'AUTONOMOS', 'IMPOSITIVO', 'PREVISIONAL', 'GANANCIAS', 'SOCIEDADES', 'PERSONAS', 'HUMANAS', 'APORTES', 'SEG.SOCIAL', 'SEGURIDAD', 'SOCIAL', 'DE', 'LA', 'LAS', 'LOS', 'Y',
        'EMPLEADOR-APORTES', 'SEG.', 'BAJA', 'DEFINITIVA', 'ACTIVO', 'EXENTO', 'CASA', 'CENTRAL', 'SUCURSAL']),

    mask: (text: string) => text.replace(/[\p{L}\p{N}]/gu, (char) => (/\p{N}/u.test(char) ? '0' : 'X')),

    personal(text: string): string {

        return text
            .replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, (email) => internals.mask(email))
            .replace(/((?:Domicilio|Direcci[oó]n)[^:<>\n]{0,30}:\s*(?:<[^>]*>\s*)*)([^<\n]{3,})/gi, (_all, label: string, value: string) => `${label}${internals.mask(value)}`)
            // Two or more words in capitals (letters of any accent, a name's dots and commas).
            .replace(
                /(?<![\p{L}\p{N}_$&#;/.-])\p{Lu}[\p{Lu}'.]+(?:,?[ \t]+\p{Lu}[\p{Lu}'.]*){1,6}(?![\p{L}\p{N}_])/gu,
                (run) => (run.split(/[\s,]+/).every((word) => internals.vocabulary.has(word)) ? run : internals.mask(run))
            );
    },

    redact(text: string, secrets: readonly string[]): string {

        let result = text;
        for (const secret of secrets) {
            for (const form of internals.forms(secret)) {
                result = result.split(form).join(internals.redacted);
            }
        }

        const names = internals.secretNames;
        result = withoutSessionIds(result)
            .replace(new RegExp(`(<input\\b[^>]*\\bname\\s*=\\s*["'](?:${names})["'][^>]*\\bvalue\\s*=\\s*["'])[^"']*`, 'gi'), `$1${internals.redacted}`)
            .replace(new RegExp(`(<input\\b[^>]*\\bvalue\\s*=\\s*["'])[^"']*(["'][^>]*\\bname\\s*=\\s*["'](?:${names})["'])`, 'gi'), `$1${internals.redacted}$2`)
            .replace(/(<input\b[^>]*\btype\s*=\s*["']hidden["'][^>]*\bvalue\s*=\s*["'])[^"']*/gi, `$1${internals.redacted}`)
            .replace(new RegExp(`("(?:${names})"\\s*:\\s*")[^"]*`, 'gi'), `$1${internals.redacted}`)
            .replace(new RegExp(`([?&](?:${names})=)[^&\\s"'<]*`, 'gi'), `$1${internals.redacted}`)
            .replace(/data:image\/[a-z]+;base64,[A-Za-z0-9+/=\s]+/gi, `data:image;base64,${internals.redacted}`);
        return internals.personal(result);
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
