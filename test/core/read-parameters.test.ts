import { expect } from 'chai';
import { DomainError } from '../../core/domain/errors.js';
import { messages } from '../../core/domain/messages.js';
import { parseReadRequest } from '../../core/contract/read-parameters.js';
import type { ReadParameterName, ReadRequest } from '../../core/domain/read-request.js';

// The read parameters' rules (core/contract/read-parameters.ts), which REST and MCP share:
// what each accepts, what it refuses and with which message.

const refusal = (request: ReadRequest, names: readonly ReadParameterName[]): string => {

    try {
        parseReadRequest(request, names);
    }
    catch (err) {
        expect(err).to.be.instanceOf(DomainError);
        expect((err as DomainError).kind).to.equal('invalid');
        return (err as DomainError).message;
    }

    throw new Error(`accepted ${JSON.stringify(request)}`);
};

describe('read parameters (core)', () => {

    it('takes limit and offset as plain digits or JSON integers, with the spec defaults', () => {

        expect(parseReadRequest({ query: {} }, ['limit', 'offset'])).to.deep.equal({ limit: 50, offset: 0 });
        expect(parseReadRequest({ query: { limit: '100', offset: '0' } }, ['limit', 'offset'])).to.deep.equal({ limit: 100, offset: 0 });
        expect(parseReadRequest({ query: { limit: 1, offset: 250 } }, ['limit', 'offset'])).to.deep.equal({ limit: 1, offset: 250 });
    });

    it('refuses anything but digits as an integer, naming the parameter', () => {

        for (const value of [' 1', '1 ', '1e2', '+1', '50.0', '-0', '-1', '0x10', '', '١', 'NaN', 1.5, -0, true, ['1', '2']]) {
            expect(refusal({ query: { limit: value } }, ['limit']), JSON.stringify(value)).to.equal(messages.field.limit);
            expect(refusal({ query: { offset: value } }, ['offset']), JSON.stringify(value)).to.equal(messages.field.offset);
        }

        for (const value of ['0', '101', 0, 101]) {
            expect(refusal({ query: { limit: value } }, ['limit'])).to.equal(messages.field.limit);
        }
    });

    it('joins every failure in one message: the path first, then the parameters, then unknown ones', () => {

        const message = refusal({ path: { cuit: '123' }, query: { offset: '-1', limit: '0', fromDate: '2026-01-01' } }, ['cuit', 'limit', 'offset']);
        expect(message).to.equal([messages.field.cuitPath, messages.field.limit, messages.field.offset, messages.unknownParameter('fromDate')].join(' '));
    });

    it('takes the CUIT-list filters: booleans, categories A to K, tags alone or repeated', () => {

        const names = ['etiquetas', 'monotributista', 'autonomo', 'categoria'] as const;
        expect(parseReadRequest({ query: { etiquetas: 'Mensuales', monotributista: 'true', autonomo: false, categoria: 'K' } }, names))
            .to.deep.equal({ etiquetas: ['Mensuales'], monotributista: true, autonomo: false, categoria: 'K' });
        expect(parseReadRequest({ query: { etiquetas: ['A', 'B'] } }, names).etiquetas).to.deep.equal(['A', 'B']);
        expect(refusal({ query: { categoria: 'L' } }, names)).to.equal(messages.field.categoria);
        expect(refusal({ query: { categoria: 'a' } }, names)).to.equal(messages.field.categoria);
        expect(refusal({ query: { monotributista: 'yes' } }, names)).to.equal(messages.field.monotributista);
        expect(refusal({ query: { etiquetas: '' } }, names)).to.equal(messages.field.etiquetas);
        expect(refusal({ query: { etiquetas: 'x'.repeat(101) } }, names)).to.equal(messages.field.etiquetas);
    });

    it('asks for both ends of a period or neither, each a real calendar date', () => {

        const names = ['from_date', 'to_date'] as const;
        expect(refusal({ query: { from_date: '2026-01-01' } }, names)).to.equal(messages.dateRangeIncomplete);
        expect(refusal({ query: { from_date: '2026-02-30', to_date: '2026-03-01' } }, names)).to.equal(messages.field.from_date);
        expect(parseReadRequest({
            query: { from_date: '2026-01-01', to_date: '2026-01-31' }
        }, names)).to.deep.equal({ from_date: '2026-01-01', to_date: '2026-01-31' });
        // A reversed period is one more failure, joined with the rest (docs/api.md, Errors).
        expect(refusal({ query: { from_date: '2026-02-01', to_date: '2026-01-31', orden: 'x' } }, names)).to.equal(`${messages.dateRangeInverted} ${messages.unknownParameter('orden')}`);
    });

    it('takes a CUIT with or without hyphens, or as a JSON number; a missing one is named', () => {

        expect(parseReadRequest({ query: { cuit: '20-12345678-6' } }, ['cuit'])).to.deep.equal({ cuit: '20123456786' });
        expect(parseReadRequest({ query: { cuit: 20123456786 } }, ['cuit'])).to.deep.equal({ cuit: '20123456786' });
        expect(refusal({ query: {} }, ['cuit'])).to.equal(messages.field.cuit);
        expect(refusal({ query: { cuit: 2012345678 } }, ['cuit'])).to.equal(messages.field.cuit);
        expect(refusal({ path: { cuit: '2012345678' }, query: {} }, ['cuit'])).to.equal(messages.field.cuitPath);
    });

    it('refuses a parameter the request does not take, and the CUIT twice', () => {

        expect(refusal({ query: { limit: '5', orden: 'desc' } }, ['limit'])).to.equal(messages.unknownParameter('orden'));
        expect(refusal({ path: { cuit: '20123456786' }, query: { cuit: '20123456786' } }, ['cuit'])).to.equal(messages.unknownParameter('cuit'));
    });

    it('reads null as an argument left out (MCP clients send it)', () => {

        expect(parseReadRequest({
            query: { limit: null, from_date: null, to_date: null }
        }, ['limit', 'from_date', 'to_date'])).to.deep.equal({ limit: 50, from_date: undefined, to_date: undefined });
    });

    // Accepted parses are remembered by what the request carried (the hot path's joi cost).
    it('answers a request asked again as the first time, whatever the first caller did with its answer', () => {

        const names = ['limit', 'offset', 'etiquetas'] as const;
        const request = { query: { limit: '7', etiquetas: ['Monotributo', 'Sociedades'] } };
        const first = parseReadRequest(request, names);
        first.limit = 99;
        expect(() => first.etiquetas!.push('Otra')).to.throw(TypeError);

        expect(parseReadRequest(request, names)).to.deep.equal({ limit: 7, offset: 0, etiquetas: ['Monotributo', 'Sociedades'] });
        expect(parseReadRequest({ path: { cuit: '20-12345678-6' }, query: {} }, ['cuit'])).to.deep.equal({ cuit: '20123456786' });
        expect(parseReadRequest({ path: { cuit: '20-12345678-6' }, query: {} }, ['cuit'])).to.deep.equal({ cuit: '20123456786' });
        // The same values under other names, or in the query instead of the path, are parsed anew.
        expect(refusal({ query: { limit: '7', etiquetas: ['Monotributo'] } }, ['limit'])).to.equal(messages.unknownParameter('etiquetas'));
        expect(refusal({ query: { cuit: '20-12345678-6' } }, ['limit'])).to.equal(messages.unknownParameter('cuit'));
        expect(refusal({ path: { cuit: '20-1234' }, query: {} }, ['cuit'])).to.equal(messages.field.cuitPath);
        expect(refusal({ path: { cuit: '20-1234' }, query: {} }, ['cuit'])).to.equal(messages.field.cuitPath);
    });
});
