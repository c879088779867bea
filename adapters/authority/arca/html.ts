// Just enough HTML reading for the authority's pages: forms with their inputs (JSF pages
// carry javax.faces.ViewState, which must be posted back), tables as rows of cell text, and
// the visible text to recognise messages.

export interface HtmlForm {
    id: string | null;
    action: string | null;
    method: string;
    fields: Record<string, string>;       // every named input with its value (hidden ones too)
}

// HTML 4's named references for Latin-1 (U+00A0 to U+00FF, in order): the authority's older
// pages write accented names with them (P&Eacute;REZ, NU&Ntilde;EZ).
const latin1 = ('nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo ' +
    'frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml ' +
    'times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ' +
    'ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml').split(' ');

const internals = {
    // Names are case-sensitive (&Ntilde; is not &ntilde;); the few that pages also write in
    // capitals (&AMP;) are found by their lower-case name.
    // A Map: a page's &constructor; or &__proto__; must find nothing, not an object's own
    // machinery. &nbsp; reads as a plain space.
    entities: new Map<string, string>(Object.entries({
        ...Object.fromEntries(latin1.map((name, i) => [name, String.fromCharCode(0xa0 + i)])),
        amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ',
        euro: '€', ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', hellip: '…', bull: '•'
    })),

    // windows-1252's characters for bytes 0x80–0x9F; the five it leaves undefined stay as
    // they are (HTML's table of character references).
    windows1252: '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ',

    attributes(tag: string): Record<string, string> {

        const result: Record<string, string> = {};
        const pattern = /([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/g;
        for (const match of tag.matchAll(pattern)) {
            result[match[1]!.toLowerCase()] = decodeEntities(match[3] ?? match[4] ?? match[5] ?? '');
        }

        return result;
    }
};

export const decodeEntities = (text: string): string => {

    return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, code: string) => {

        if (code[0] === '#') {
            const value = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : Number(code.slice(1));
            // As HTML reads them: a reference to 128–159 means the windows-1252 character of
            // that byte (&#147; is “), as pages written on Windows use them; one to no
            // character (0, past U+10FFFF, where fromCodePoint would throw) or to half of a
            // UTF-16 pair, which no text can hold alone, is U+FFFD.
            if (value >= 0x80 && value <= 0x9f) {
                return internals.windows1252[value - 0x80]!;
            }

            return value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff) ? '\uFFFD' : String.fromCodePoint(value);
        }

        return internals.entities.get(code) ?? internals.entities.get(code.toLowerCase()) ?? whole;
    });
};

export const pageText = (html: string): string => {

    return decodeEntities(html
        .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
        .replace(/<[^>]+>/g, ' '))
        .replace(/\s+/g, ' ')
        .trim();
};

export interface SelectOption {
    value: string;             // the value attribute, or the label when there is none
    label: string;             // the text shown
    selected: boolean;
}

// The options of the <select> named `name`, in page order; null when the page has none.
export const selectOptions = (html: string, name: string): SelectOption[] | null => {

    const escaped = name.replace(/[$^.*+?()[\]{}|\\]/g, '\\$&');
    const select = new RegExp(`<select\\b[^>]*\\bname\\s*=\\s*["']${escaped}["'][^>]*>([\\s\\S]*?)<\\/select>`, 'i').exec(html);
    if (!select) {
        return null;
    }

    return [...select[1]!.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/gi)].map((match) => ({
        value: decodeEntities(/\bvalue\s*=\s*["']([^"']*)["']/i.exec(match[1]!)?.[1] ?? pageText(match[2]!)),
        label: pageText(match[2]!),
        selected: /\bselected\b/i.test(match[1]!)
    }));
};

export const parseForms = (html: string): HtmlForm[] => {

    const forms: HtmlForm[] = [];
    for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
        const attributes = internals.attributes(match[1]!);
        const fields: Record<string, string> = {};
        for (const input of match[2]!.matchAll(/<input\b([^>]*)>/gi)) {
            const inputAttributes = internals.attributes(input[1]!);
            const type = (inputAttributes.type ?? 'text').toLowerCase();
            if (inputAttributes.name && type !== 'submit' && type !== 'button' && type !== 'image') {
                fields[inputAttributes.name] = inputAttributes.value ?? '';
            }
        }

        forms.push({
            id: attributes.id ?? attributes.name ?? null,
            action: attributes.action ?? null,
            method: (attributes.method ?? 'get').toLowerCase(),
            fields
        });
    }

    return forms;
};

export const findForm = (html: string, id: string): HtmlForm | null => {

    return parseForms(html).find((form) => form.id === id) ?? null;
};
