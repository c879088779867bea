import type { Categoria } from './client.js';

// The monotributo's category caps (annual gross income, pesos), one table per semester, as the
// repository ships them (docs/answers.md, Category tables). Migration 019 loads these rows;
// staff load each newer table with `arcasync monotributo cargar` when ARCA publishes it.

export interface CategoryTable {
    // The first day the table is in force (YYYY-MM-DD).
    vigenciaDesde: string;
    // Where the amounts were read.
    fuente: string;
    topes: Record<Categoria, number>;
}

const internals = {
    caps: (values: readonly number[]): Record<Categoria, number> => {

        const letters = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K'] as const;
        return Object.fromEntries(letters.map((letter, index) => [letter, values[index]!])) as Record<Categoria, number>;
    }
};

export const publishedTables: readonly CategoryTable[] = [
    {
        vigenciaDesde: '2024-08-01',
        fuente: 'Ley 27.743 (tabla única desde agosto de 2024); montos del registro histórico público de tablas de monotributo',
        topes: internals.caps([6450000, 9450000, 13250000, 16450000, 19350000, 24250000, 29000000, 44000000, 49250000, 56400000, 68000000])
    },
    {
        vigenciaDesde: '2025-02-01',
        fuente: 'Actualización semestral por IPC; registro histórico público de tablas (K: 82.370.281,28 según rosario3, 21/01/2025)',
        topes: internals.caps([7813063, 11447046, 16050091, 19926340, 23439190, 29374695, 35128502, 53298417, 59657887, 68318880, 82370281.28])
    },
    {
        vigenciaDesde: '2025-08-01',
        fuente: 'Actualización semestral por IPC; publicada por lasherasnoticias.com y mdzol.com',
        topes: internals.caps([
            8992597.87, 13175201.52, 18473166.15, 22934610.05, 26977793.60, 33809379.57, 40431835.35, 61344853.64, 68664410.05, 78632948.76, 94805682.90
        ])
    },
    {
        vigenciaDesde: '2026-02-01',
        fuente: 'RG 5637/2025, actualización semestral por IPC; elonce.com (06/02/2026), La Gaceta y la página de categorías de ARCA',
        topes: internals.caps([
            10277988.13, 15058447.71, 21113696.52, 26212853.42, 30833964.37, 38642048.36, 46211109.37, 70113407.33, 78479211.62, 89872640.30, 108357084.05
        ])
    }
];
