// Delimited text as the authority exports it: quoted or bare fields, "" as an escaped quote,
// CRLF or LF, an optional UTF-8 BOM. Blank lines are dropped.

const internals = {
    quote: '"'.charCodeAt(0),
    lf: '\n'.charCodeAt(0),
    cr: '\r'.charCodeAt(0)
};

export const detectDelimiter = (headerLine: string): ',' | ';' => {

    const semicolons = headerLine.split(';').length;
    const commas = headerLine.split(',').length;
    return semicolons > commas ? ';' : ',';
};

// Characters are read as char codes and fields cut out of the text run by run (between
// quotes, separators and line ends), never a string per character: the parse runs on the
// event loop that API requests and saves wait on.
export const parseCsv = (text: string, delimiter?: ',' | ';'): string[][] => {

    const source = text.replace(/^\uFEFF/, '');
    const firstLine = source.slice(0, source.search(/\r?\n|$/));
    const separator = (delimiter ?? detectDelimiter(firstLine)).charCodeAt(0);
    const { quote, lf, cr } = internals;
    const rows: string[][] = [];
    let row: string[] = [];
    let field = '';
    let run = 0;            // where the field's current run of plain characters starts
    let quoted = false;
    for (let i = 0; i < source.length; ++i) {
        const char = source.charCodeAt(i);
        if (quoted) {
            if (char === quote) {
                field += source.slice(run, i);
                if (source.charCodeAt(i + 1) === quote) {
                    field += '"';
                    ++i;
                }
                else {
                    quoted = false;
                }

                run = i + 1;
            }

            continue;
        }

        if (char === quote) {
            field += source.slice(run, i);
            quoted = true;
            run = i + 1;
        }
        else if (char === separator) {
            row.push(field + source.slice(run, i));
            field = '';
            run = i + 1;
        }
        else if (char === lf || char === cr) {
            row.push(field + source.slice(run, i));
            if (char === cr && source.charCodeAt(i + 1) === lf) {
                ++i;
            }

            rows.push(row);
            row = [];
            field = '';
            run = i + 1;
        }
    }

    field += source.slice(run);
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
