import { categories } from '../../core/domain/client.js';
import { healthStates } from '../../core/domain/health.js';
import { cuitPattern } from '../../core/domain/cuit.js';
import { maxLimit, pageDefaults } from '../../core/domain/pagination.js';
import type { ReadParameterName } from '../../core/domain/read-parameters.js';
import { tagNameBounds } from '../../core/domain/read-parameters.js';

// How the read parameters are described to clients: the OpenAPI document's parameters and
// the MCP tools' input schemas. The bounds come from the core's own constants, so a
// description cannot drift from the rule the core applies (core/domain/read-parameters.ts).

export type Schema = Record<string, unknown>;

export const parameterSchemas: { [K in ReadParameterName]: Schema } = {
    cuit: { type: 'string', pattern: cuitPattern.source, description: 'CUIT del cliente, 11 dígitos con o sin guiones (NN-NNNNNNNN-N).', examples: ['20-12345678-6'] },
    limit: { type: 'integer', minimum: 1, maximum: maxLimit, default: pageDefaults.limit, description: `Cantidad de registros por página, de 1 a ${maxLimit}.` },
    offset: { type: 'integer', minimum: 0, default: pageDefaults.offset, description: 'Cantidad de registros a saltear desde el comienzo.' },
    etiquetas: {
        type: 'array',
        items: { type: 'string', minLength: tagNameBounds.min, maxLength: tagNameBounds.max },
        description: 'Nombres de etiquetas; varias se combinan con O (parámetro repetido).',
        examples: [['Mensuales']]
    },
    monotributista: { type: 'boolean', description: 'Solo monotributistas (true) o solo quienes no lo son (false).' },
    autonomo: { type: 'boolean', description: 'Solo autónomos (true) o solo quienes no lo son (false).' },
    categoria: { type: 'string', enum: [...categories], description: 'Categoría de monotributo.' },
    from_date: { type: 'string', format: 'date', description: 'Primer día del período (AAAA-MM-DD); va junto con to_date. Sin ambos, el mes en curso en UTC.', examples: ['2026-10-01'] },
    to_date: { type: 'string', format: 'date', description: 'Último día del período (AAAA-MM-DD), inclusive; va junto con from_date.', examples: ['2026-10-31'] },
    estado: { type: 'array', items: { type: 'string', enum: [...healthStates] }, description: 'Solo los CUIT en estos estados; varios se combinan con O (parámetro repetido).', examples: [['clave_vencida', 'clave_rechazada']] },
    requiere_atencion: { type: 'boolean', description: 'Solo los CUIT que necesitan que alguien haga algo (true) o solo los que no (false).', examples: [true] }
};

// For CCMA movements, limit and offset count periods (SPEC §4.10).
export const periodPageSchemas: Pick<typeof parameterSchemas, 'limit' | 'offset'> = {
    limit: { ...parameterSchemas.limit, description: `Cantidad de períodos por página, de 1 a ${maxLimit}.` },
    offset: { ...parameterSchemas.offset, description: 'Cantidad de períodos a saltear, del más reciente al más antiguo.' }
};
