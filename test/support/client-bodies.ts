import type { Cuit } from '../../core/domain/cuit.js';

// Bodies of POST /v1/cuits as a client sends them (docs/api.md, Writes), for the write suites.

export const personBody = (cuit: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    tipo: 'persona-fisica',
    cuit,
    nombre: 'María',
    apellido: 'González',
    clave_arca: 'Clave-Secreta-1',
    ...extra
});

export const entityBody = (cuit: string, representante: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    tipo: 'persona-juridica',
    cuit,
    razon_social: 'Panadería La Espiga SRL',
    representante,
    ...extra
});

// Fresh CUITs (no check digit is enforced: core/domain/cuit.ts), so tests do not collide.
export const cuitSequence = (start = 10_000_000): ((prefix?: '20' | '27' | '30') => Cuit) => {

    let next = start;
    return (prefix = '20') => `${prefix}${String(++next).padStart(8, '0')}${next % 10}` as Cuit;
};
