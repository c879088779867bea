import { importColumns, importLimits } from '../../core/use-cases/import-rows.js';
import { formatCount } from './format.js';

// What the import's pages say (es-AR; docs/panel.md, Importar clientes). Templates take these
// as values, so they are escaped like everything else a page shows.

const columnList = importColumns.join(', ');

export const importTexts = {
    title: 'Importar clientes',
    intro: 'Cargá muchos clientes de una vez con una planilla: cada fila es un cliente, con las mismas reglas que el alta por la API (POST /v1/cuits). Primero ves qué filas se importan y cuáles tienen errores; no se guarda nada hasta que confirmás.',
    templates: 'Plantillas',
    csvTemplate: 'Plantilla CSV',
    xlsxTemplate: 'Plantilla Excel (.xlsx)',
    columnsHeading: 'Columnas',
    columnsIntro: `La primera fila lleva los títulos: ${columnList}. Cada fila es una persona física con su clave fiscal o una persona jurídica con su representante.`,
    columnHelp: [
        { name: 'tipo', help: 'persona-fisica o persona-juridica.' },
        { name: 'cuit', help: '11 dígitos, con o sin guiones.' },
        { name: 'nombre, apellido, clave_arca', help: 'Solo persona física; obligatorios. La clave se guarda cifrada y nunca se muestra.' },
        { name: 'razon_social, representante', help: 'Solo persona jurídica; obligatorios. El representante es el CUIT de una persona física ya cargada o de otra fila del mismo archivo.' },
        { name: 'email, telefono', help: 'Opcionales.' }
    ],
    formatsNote: `CSV en UTF-8 separado por punto y coma o por comas (el "CSV UTF-8" de Excel), o un libro de Excel .xlsx (se lee la primera hoja). Hasta ${formatCount(importLimits.maxRows)} filas y 5 MB.`,
    uploadHeading: 'Subí la planilla',
    file: 'Archivo',
    upload: 'Revisar el archivo',
    previewTitle: 'Revisá la importación',
    fileName: (name: string): string => `Archivo: ${name}`,
    summary: (accepted: number, refused: number): string => `${formatCount(accepted)} ${accepted === 1 ? 'fila se puede importar' : 'filas se pueden importar'} · ${formatCount(refused)} ${refused === 1 ? 'fila tiene errores' : 'filas tienen errores'}.`,
    billing: (count: number): string => `Al confirmar se agregan ${formatCount(count)} ${count === 1 ? 'CUIT' : 'CUITs'} a la cuenta; la facturación es por CUIT gestionado. La primera sincronización de cada uno queda en cola.`,
    refusedHeading: 'Filas con errores (no se importan)',
    acceptedHeading: 'Filas que se importan',
    columns: { row: 'Fila', cuit: 'CUIT', tipo: 'Tipo', name: 'Nombre', errors: 'Errores' },
    tipos: { 'persona-fisica': 'Persona física', 'persona-juridica': 'Persona jurídica' } as Record<string, string>,
    confirm: (count: number): string => `Importar ${formatCount(count)} ${count === 1 ? 'cliente' : 'clientes'}`,
    confirmNote: 'La revisión vence en 30 minutos. Las filas con errores no se importan: corregilas y subilas en otro archivo.',
    nothingToImport: 'Ninguna fila se puede importar: corregí los errores y volvé a subir el archivo.',
    another: 'Subir otro archivo',
    doneTitle: 'Importación terminada',
    imported: (count: number): string => `Se ${count === 1 ? 'importó' : 'importaron'} ${formatCount(count)} ${count === 1 ? 'cliente' : 'clientes'}.`,
    skippedHeading: 'Filas que no se importaron',
    toPortfolio: 'Ver la cartera',
    noCell: '—',

    // The file itself (import-file.ts).
    emptyFile: 'El archivo está vacío.',
    tooLarge: 'El archivo es demasiado grande: el máximo es 5 MB. Dividilo en archivos más chicos.',
    wrongFormat: 'No se pudo leer el archivo: subí un CSV en UTF-8 o un libro de Excel .xlsx, como las plantillas.',
    oldExcel: 'Los libros de Excel 97-2003 (.xls) no se leen: guardalo como libro de Excel (.xlsx) o como "CSV UTF-8".',
    notUtf8: 'El archivo no está en UTF-8: en Excel, guardalo como "CSV UTF-8 (delimitado por comas)" o como .xlsx.',
    noFile: 'Elegí un archivo para importar.',
    noTitles: `La primera fila debe tener los títulos de las columnas de la plantilla: ${columnList}.`,
    unknownColumns: (names: string[]): string => `${names.length === 1 ? 'La columna' : 'Las columnas'} ${names.map((name) => `'${name}'`).join(', ')} no ${names.length === 1 ? 'es' : 'son'} de la plantilla: las columnas son ${columnList}.`,
    repeatedColumns: (names: string[]): string => `${names.length === 1 ? 'La columna' : 'Las columnas'} ${names.map((name) => `'${name}'`).join(', ')} ${names.length === 1 ? 'está repetida' : 'están repetidas'}.`,
    untitledColumn: (row: number, column: number): string => `La fila ${row} tiene datos en la columna ${column}, que no tiene título.`,
    sheetName: 'Clientes'
};
