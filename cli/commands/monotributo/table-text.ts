import type { CategoryTable } from '../../../core/domain/monotributo.js';
import { visible } from '../../terminal-text.js';

const internals = {
    amount: new Intl.NumberFormat('es-AR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
};

// A table as staff read it: its date and source, then each category's cap in pesos.
export const tableText = (table: CategoryTable): string => [
    `Vigente desde ${table.vigenciaDesde} (fuente: ${visible(table.fuente)})`,
    ...Object.entries(table.topes).map(([letter, cap]) => `  ${letter}  $ ${internals.amount.format(cap)}`)
].join('\n');
