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
// MARIA", "EMPRESA DEMO SRL"), and, in any case, whatever the page's structure says is a name
// or an address: the value after a label ("Apellido y nombre:", "Razón social:",
// "Domicilio fiscal:"), a greeting's name ("Hola, María"), an element or JSON field named so
// (lblRazonSocial, "nombre"), the cells of a grid column headed so, a heading over a CUIT and
// a selector option's text after its CUIT (docs/authority.md, Captured pages).

interface Capture {
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

    // Labels and names of elements and fields that hold a name or an address.
    nameLabel: /^\s*(?:apellidos?(?:\s+y\s+nombres?)?|nombres?(?:\s+y\s+apellidos?)?|raz[oó]n\s+social|denominaci[oó]n|contribuyente|representad[oa]|titular)\b/i,
    labelled: /(?<![\p{L}\p{N}_$])((?:Apellidos?(?:\s+y\s+nombres?)?|Nombres?(?:\s+y\s+apellidos?)?|Raz[oó]n\s+social|Denominaci[oó]n|Contribuyente|Representad[oa]|Representando\s+a|Titular|Domicilio|Direcci[oó]n)[^:<>\n"]{0,30}:\s*(?:<[^>]*>\s*)*)([^<>\n"[]{2,})/giu,
    namedElement: /(<(?:span|td|div|p|h[1-6]|label|strong|b|em|li|a)\b[^>]*\b(?:id|class|name)\s*=\s*["'][^"']*(?:nombre|apellido|raz[oó]n_?social|denominaci|contribuyente|representad)[^"']*["'][^>]*>)([^<]+)/giu,
    namedInput: /(<input\b[^>]*\b(?:id|name)\s*=\s*["'][^"']*(?:nombre|apellido|raz[oó]n_?social|denominaci|contribuyente|representad)[^"']*["'][^>]*\bvalue\s*=\s*["'])(?!\[redactado\])([^"']*)/giu,
    namedJson: /("[\w$]*(?:nombre|apellido|razonsocial|denominacion)[\w$]*"\s*:\s*")((?:[^"\\]|\\.)*)/giu,

    // The cells of every grid column whose header names a name ("Apellido y nombre / Razón social").
    nameColumns(html: string): string {

        return html.replace(/<table\b[\s\S]*?<\/table>/gi, (table) => {

            const rows = table.split(/(?=<tr\b)/i);
            const header = rows.find((row) => /<th\b/i.test(row));
            const columns = header ? [...header.matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/gi)]
                .map((cell, index) => (internals.nameLabel.test(cell[1]!.replace(/<[^>]*>/g, '')) ? index : -1))
                .filter((index) => index >= 0) : [];
            if (!columns.length) {
                return table;
            }

            return rows.map((row) => {

                if (row === header) {
                    return row;
                }

                let index = -1;
                return row.replace(/(<td\b[^>]*>)([\s\S]*?)(<\/td>)/gi, (cell, open: string, inner: string, close: string) => {

                    index++;
                    return columns.includes(index) ? `${open}${inner.replace(/(^|>)([^<]+)/g, (_all, tag: string, text: string) => `${tag}${internals.mask(text)}`)}${close}` : cell;
                });
            }).join('');
        });
    },

    personal(text: string): string {

        const mask = (_all: string, before: string, value: string) => `${before}${internals.mask(value)}`;
        return internals.nameColumns(text)
            .replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, (email) => internals.mask(email))
            .replace(internals.labelled, mask)
            .replace(/(\b(?:Hola|Bienvenid[oa](?:\/[oa])?)\b,?[ \t]*)(\p{Lu}[^<>\n"!?.]{1,60})/gu, mask)
            .replace(internals.namedElement, mask)
            .replace(internals.namedInput, mask)
            .replace(internals.namedJson, mask)
            .replace(/(<h[1-6]\b[^>]*>)([^<]+)(?=<\/h[1-6]>\s*(?:<[^>]+>\s*)*CUIT\b)/giu, mask)
            .replace(/(<option\b[^>]*>\s*\d{2}-?\d{8}-?\d\s*[-–]\s*)([^<]+)/giu, mask)
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
