import { cuitSequence } from './client-bodies.js';

// Files for the panel's client import (docs/panel.md, Importar clientes), as an accountant's
// spreadsheet exports them: UTF-8 with Excel's BOM, `;` between fields, CRLF.

export const importHeader = 'tipo;cuit;nombre;apellido;razon_social;representante;clave_arca;email;telefono';

// The done-when: 50 rows, of which 47 good (45 people, 2 legal entities represented by
// the first two people, their names with a quoted `;`) and 3 bad, rows 11, 21 and 41 (a CUIT
// that is not one, a person without its key, the CUIT of row 5 again).
export const fiftyRowsWithThreeBad = (nextCuit: ReturnType<typeof cuitSequence>, keyOf: (cuit: string) => string) => {

    const lines = [importHeader];
    const good: string[] = [];
    for (let i = 0; i < 45; ++i) {
        const cuit = nextCuit();
        good.push(cuit);
        lines.push(`persona-fisica;${cuit};Ana ${i};"Pérez; Gómez";;;${keyOf(cuit)};ana${i}@example.com;`);
    }

    for (let i = 0; i < 2; ++i) {
        const cuit = nextCuit('30');
        good.push(cuit);
        lines.push(`persona-juridica;${cuit};;;Empresa ${i} SRL;${good[i]};;;`);
    }

    lines.splice(10, 0, 'persona-fisica;20-123;Ana;Mal;;;una-clave;;');
    lines.splice(20, 0, `persona-fisica;${nextCuit()};Ana;Sin clave;;;;;`);
    lines.splice(40, 0, `persona-fisica;${good[3]};Ana;Repetida;;;otra-clave;;`);
    return { csv: `\uFEFF${lines.join('\r\n')}\r\n`, good, bad: [11, 21, 41], keys: good.slice(0, 45).map(keyOf) };
};
