// Delimited text as the authority exports it: quoted or bare fields, "" as an escaped quote,
// CRLF or LF, an optional UTF-8 BOM. Blank lines are dropped.

export const detectDelimiter = (headerLine: string): ',' | ';' => {

    const semicolons = headerLine.split(';').length;
    const commas = headerLine.split(',').length;
    return semicolons > commas ? ';' : ',';
};

export const parseCsv = (text: string, delimiter?: ',' | ';'): string[][] => {

    const source = text.replace(/^\uFEFF/, '');
    const firstLine = source.slice(0, source.search(/\r?\n|$/));
    const separator = delimiter ?? detectDelimiter(firstLine);
    const rows: string[][] = [];
    let row: string[] = [];
    let field = '';
    let quoted = false;
    for (let i = 0; i < source.length; ++i) {
        const char = source[i]!;
        if (quoted) {
            if (char === '"') {
                if (source[i + 1] === '"') {
                    field += '"';
                    ++i;
                }
                else {
                    quoted = false;
                }
            }
            else {
                field += char;
            }

            continue;
        }

        if (char === '"') {
            quoted = true;
        }
        else if (char === separator) {
            row.push(field);
            field = '';
        }
        else if (char === '\n' || char === '\r') {
            if (char === '\r' && source[i + 1] === '\n') {
                ++i;
            }

            row.push(field);
            rows.push(row);
            row = [];
            field = '';
        }
        else {
            field += char;
        }
    }

    if (field !== '' || row.length) {
        row.push(field);
        rows.push(row);
    }

    return rows.filter((cells) => cells.some((cell) => cell.trim() !== ''));
};

// Header names compared without accents, case, dots or spacing differences.
export const headerKey = (header: string): string => {

    return header.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().replace(/[.\s]+/g, ' ').trim();
};
