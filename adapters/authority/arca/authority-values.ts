import type { AuthorityFailure } from '../../../core/ports/authority-client.js';
import { failure } from './failures.js';

// Values as the authority writes them, into the domain's forms.

const internals = {
    unexpected(what: string, value: string): AuthorityFailure {

        return failure('unexpected_page', `valor inesperado en ${what}: ${JSON.stringify(value.slice(0, 40))}`);
    }
};

// Argentine notation: optional dot thousands, comma decimal ("63.133,14", "1475,006"). With
// no comma, a dot is a decimal point ("1050.5" in JSON) unless the export is known to write
// dot thousands (`dotThousands`). A number in US notation ("14,625.46", as CCAM writes) is
// refused here, never read as 14.62546. Empty or "-" -> null.
export const parseAmount = (raw: string | number | null | undefined, what = 'importe', dotThousands = false): number | null => {

    if (raw === null || raw === undefined) {
        return null;
    }

    if (typeof raw === 'number') {
        return Number.isFinite(raw) ? raw : null;
    }

    let text = raw.trim().replace(/^\$\s*/, '').replace(/\s/g, '');
    if (text === '' || text === '-') {
        return null;
    }

    if (text.includes(',')) {
        if (!/^-?\d{1,3}(\.\d{3})*,\d+$/.test(text) && !/^-?\d+,\d+$/.test(text)) {
            throw internals.unexpected(what, raw);
        }

        text = text.replace(/\./g, '').replace(',', '.');
    }
    else if (dotThousands) {
        if (!/^-?\d{1,3}(\.\d{3})*$/.test(text)) {
            throw internals.unexpected(what, raw);
        }

        text = text.replace(/\./g, '');
    }

    if (!/^-?\d+(\.\d+)?$/.test(text)) {
        throw internals.unexpected(what, raw);
    }

    return Number(text);
};

// US notation as CCAM writes it: comma thousands, dot decimal, negatives in parentheses
// ("14,625.46", "(1,234.00)", "0.00"). Argentine notation is refused. Empty or "-" -> null.
export const parseUsAmount = (raw: string | null | undefined, what = 'importe'): number | null => {

    const text = (raw ?? '').replace(/\u00a0/g, ' ').trim().replace(/^\$\s*/, '');
    if (text === '' || text === '-') {
        return null;
    }

    const match = /^(\()?\s*(-)?(\d{1,3}(?:,\d{3})*|\d+)(\.\d+)?\s*(\))?$/.exec(text);
    if (!match || Boolean(match[1]) !== Boolean(match[5])) {
        throw internals.unexpected(what, raw ?? '');
    }

    const value = Number(`${match[3]!.replace(/,/g, '')}${match[4] ?? ''}`);
    return match[1] || match[2] ? -value : value;
};

export const requireAmount = (raw: string | number | null | undefined, what: string, dotThousands = false): number => {

    const value = parseAmount(raw, what, dotThousands);
    if (value === null) {
        throw internals.unexpected(what, String(raw));
    }

    return value;
};

// 'YYYY-MM-DD' from ISO or dd/mm/yyyy (time parts ignored); empty -> null.
export const parseDate = (raw: string | null | undefined, what = 'fecha'): string | null => {

    const text = (raw ?? '').trim();
    if (text === '') {
        return null;
    }

    const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
    if (iso) {
        return `${iso[1]}-${iso[2]}-${iso[3]}`;
    }

    const local = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(text);
    if (local) {
        return `${local[3]}-${local[2]!.padStart(2, '0')}-${local[1]!.padStart(2, '0')}`;
    }

    throw internals.unexpected(what, text);
};

export const requireDate = (raw: string | null | undefined, what: string): string => {

    const value = parseDate(raw, what);
    if (value === null) {
        throw internals.unexpected(what, String(raw));
    }

    return value;
};

// "6 - Factura B" or "6" -> "6" (the authority's code, untranslated).
export const parseInvoiceType = (raw: string): string => {

    const text = raw.trim();
    const match = /^(\d+)/.exec(text);
    if (!match) {
        throw internals.unexpected('tipo de comprobante', text);
    }

    return String(Number(match[1]));
};

// The authority's currency code: "$" and "PES" are pesos, "USD" and "DOL" dollars.
export const parseCurrency = (raw: string): string => {

    const text = raw.trim().toUpperCase();
    if (text === '$' || text === 'PES' || text === 'ARS') {
        return 'PES';
    }

    if (text === 'USD' || text === 'U$S' || text === 'DOL') {
        return 'DOL';
    }

    if (!/^[A-Z0-9]{3}$/.test(text)) {
        throw internals.unexpected('moneda', text);
    }

    return text;
};

export const blankToNull = (raw: string | null | undefined): string | null => {

    const text = (raw ?? '').trim();
    return text === '' ? null : text;
};

// Point of sale and invoice numbers: "00004" and "4" are the same number in every export.
export const parseDigits = (raw: string): string => {

    const text = raw.trim();
    return /^\d+$/.test(text) ? text.replace(/^0+(?=\d)/, '') : text;
};
