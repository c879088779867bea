// Just enough HTML reading for the authority's pages: forms with their inputs (JSF pages
// carry javax.faces.ViewState, which must be posted back), tables as rows of cell text, and
// the visible text to recognise messages.

export interface HtmlForm {
    id: string | null;
    action: string | null;
    method: string;
    fields: Record<string, string>;       // every named input with its value (hidden ones too)
}

const internals = {
    entities: { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' } as Record<string, string>,

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
            return String.fromCodePoint(value);
        }

        return internals.entities[code.toLowerCase()] ?? whole;
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

        forms.push({ id: attributes.id ?? attributes.name ?? null, action: attributes.action ?? null, method: (attributes.method ?? 'get').toLowerCase(), fields });
    }

    return forms;
};

export const findForm = (html: string, id: string): HtmlForm | null => {

    return parseForms(html).find((form) => form.id === id) ?? null;
};

