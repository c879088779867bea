// What every simulated host's pages share: the HTML frame, escaping, and the authority's
// number and date notations.

export interface Taxpayer {
    cuit: string;
    name: string;
}

export const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const htmlPage = (title: string, body: string): string => `<!DOCTYPE html>\n<html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n${body}\n</body></html>\n`;

export const messagePage = (title: string, message: string): string => htmlPage(title, `<div class="container"><h1>${escapeHtml(title)}</h1><p class="alert">${escapeHtml(message)}</p></div>`);

// 1475,006 style: comma decimal, no thousands (Mis Comprobantes' CSV).
export const commaAmount = (value: number | null): string => (value === null ? '' : String(value).replace('.', ','));

// 14,625.46 style (CCAM); negatives in parentheses.
export const usAmount = (value: number | null): string => {

    if (value === null) {
        return '';
    }

    const [whole, decimals] = Math.abs(value).toFixed(2).split('.');
    const text = `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${decimals}`;
    return value < 0 ? `(${text})` : text;
};

export const dmy = (date: string): string => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
export const dashedCuit = (cuit: string): string => `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`;
