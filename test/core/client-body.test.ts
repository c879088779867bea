import { expect } from 'chai';
import { parseClientPatch, parseNewClient } from '../../core/contract/client-body.js';
import { messages } from '../../core/domain/messages.js';

// The bodies and the edit rules (docs/api.md, Writes) as the core applies them, whichever front end sends the body.

describe('client bodies (core)', () => {

    describe('parseNewClient', () => {

        it('reads a physical person: CUIT without hyphens, names trimmed, the key exactly as sent', () => {

            const { input, failures } = parseNewClient({
                tipo: 'persona-fisica',
                cuit: '20-12345678-6',
                nombre: ' María ',
                apellido: 'González',
                clave_arca: ' con espacios ',
                email: 'm@example.com'
            });
            expect(failures).to.deep.equal([]);
            expect(input).to.deep.equal({
                tipo: 'persona-fisica',
                cuit: '20123456786',
                nombre: 'María',
                apellido: 'González',
                claveArca: ' con espacios ',
                email: 'm@example.com',
                telefono: null
            });
        });

        it('reads a legal entity with its representative', () => {

            const { input } = parseNewClient({
                tipo: 'persona-juridica',
                cuit: '30712345671',
                razon_social: 'La Espiga SRL',
                representante: '20-12345678-6',
                telefono: null
            });
            expect(input).to.deep.equal({
                tipo: 'persona-juridica',
                cuit: '30712345671',
                razonSocial: 'La Espiga SRL',
                representante: '20123456786',
                email: null,
                telefono: null
            });
        });

        it('lists every failure, each naming its field, without repeating any value', () => {

            const { input, failures } = parseNewClient({ tipo: 'persona-juridica', cuit: '1', clave_arca: 'Secreto-9', autonomo: true, x: 1 });
            expect(input).to.equal(null);
            expect(failures).to.deep.equal([
                messages.clientWrite.cuit,
                messages.clientWrite.required('razon_social'),
                messages.clientWrite.required('representante'),
                messages.clientWrite.notApplicable('clave_arca', 'persona-juridica'),
                messages.clientWrite.autonomo,
                messages.unknownField('x')
            ]);
            expect(failures.join(' ')).to.not.contain('Secreto-9');
        });

        it('without a valid tipo still checks the fields it can', () => {

            const { failures } = parseNewClient({ cuit: '20123456786', email: 'no' });
            expect(failures).to.deep.equal([messages.clientWrite.required('tipo'), messages.clientWrite.email]);
        });
    });

    describe('parseClientPatch', () => {

        it('keeps absent fields absent and null for email and telefono', () => {

            expect(parseClientPatch({ email: null }, 'persona-fisica')).to.deep.equal({ patch: { email: null }, failures: [], fields: {} });
            expect(parseClientPatch({ telefono: ' 123 ', nombre: 'Ana' }, 'persona-fisica').patch).to.deep.equal({ nombre: 'Ana', telefono: '123' });
        });

        it('applies rules 1 to 5', () => {

            expect(parseClientPatch({}, 'persona-fisica').failures).to.deep.equal([messages.clientWrite.emptyPatch]);
            expect(parseClientPatch({ razon_social: 'X' }, 'persona-fisica').failures).to.deep.equal(
                [messages.clientWrite.notApplicable('razon_social', 'persona-fisica')]
            );
            expect(parseClientPatch({ nombre: null }, 'persona-fisica').failures).to.deep.equal([messages.clientWrite.notNullable('nombre')]);
            expect(
                parseClientPatch({ cuit: '20123456786', tipo: 'persona-fisica' }, 'persona-fisica').failures
            ).to.deep.equal([messages.clientWrite.immutable]);
            expect(parseClientPatch({ monotributista: false }, 'persona-juridica').failures).to.deep.equal([messages.clientWrite.monotributista]);
        });

        it('before the client is known, checks only what does not depend on its type', () => {

            expect(parseClientPatch({ razon_social: 'X SA', nombre: 'Ana' }, null).failures).to.deep.equal([]);
            expect(parseClientPatch({ razon_social: '' }, null).failures).to.deep.equal([messages.clientWrite.razon_social]);
        });
    });
});
