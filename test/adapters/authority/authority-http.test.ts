import { expect } from 'chai';
import { parseAmount, parseCurrency, parseDate, parseDigits, parseInvoiceType, parseUsAmount } from '../../../adapters/authority/arca/authority-values.js';
import { createRouter } from '../../../adapters/authority/hosts.js';
import { startSimulatedAuthority } from '../../../adapters/authority/simulated/index.js';
import { AuthorityFailure } from '../../../core/ports/authority-client.js';

// The small pieces under the arca adapter: the routing of every host to one server, and the
// reading of the authority's values.

describe('arca adapter pieces', () => {

    describe('routing', () => {

        it('keeps the real addresses without a base URL and puts the host in the path with one', () => {

            const logical = new URL('https://fes.afip.gob.ar/mcmp/jsp/ajax.do?f=generarConsulta&t=R');
            expect(createRouter(null).physical(logical)).to.equal(logical.href);
            expect(createRouter('http://127.0.0.1:9/').physical(logical)).to.equal('http://127.0.0.1:9/fes.afip.gob.ar/mcmp/jsp/ajax.do?f=generarConsulta&t=R');
        });

        it('lets the simulated authority be reached by its Host header too', async () => {

            const sim = await startSimulatedAuthority();
            try {
                const { request } = await import('node:http');
                const body = await new Promise<string>((resolve, reject) => {

                    const req = request(`${sim.url}/contribuyente_/login.xhtml`, { headers: { host: 'auth.afip.gob.ar' } }, (res) => {

                        let text = '';
                        res.on('data', (chunk: Buffer) => {

                            text += chunk.toString();
                        });
                        res.on('end', () => resolve(text));
                    });
                    req.on('error', reject);
                    req.end();
                });
                expect(body).to.contain('F1:username').and.contain('javax.faces.ViewState');
            }
            finally {
                await sim.stop();
            }
        });
    });

    describe('values', () => {

        it('reads amounts in every notation the exports use', () => {

            expect(parseAmount('1475,006')).to.equal(1475.006);
            expect(parseAmount('63.133,14')).to.equal(63133.14);
            expect(parseAmount('1050.5')).to.equal(1050.5);
            expect(parseAmount('1.000', 'saldo', true)).to.equal(1000);
            expect(parseAmount('-41.049,00', 'saldo', true)).to.equal(-41049);
            expect(parseAmount('$ 12,5')).to.equal(12.5);
            expect(parseAmount('')).to.equal(null);
            expect(parseAmount(' - ')).to.equal(null);
            expect(() => parseAmount('doce')).to.throw(AuthorityFailure);
        });

        it('never reads a US-format amount as Argentine: 14,625.46 is refused, not 14.62546', () => {

            expect(() => parseAmount('14,625.46')).to.throw(AuthorityFailure);
            expect(() => parseAmount('1,234,567')).to.throw(AuthorityFailure);
            expect(() => parseAmount('1.000', 'saldo')).to.not.throw();
            expect(() => parseAmount('12.34', 'saldo', true)).to.throw(AuthorityFailure);
        });

        it('reads CCAM amounts in US notation, negatives in parentheses', () => {

            expect(parseUsAmount('14,625.46')).to.equal(14625.46);
            expect(parseUsAmount('(1,234.00)')).to.equal(-1234);
            expect(parseUsAmount('0.00')).to.equal(0);
            expect(parseUsAmount('1,234,567.8')).to.equal(1234567.8);
            expect(parseUsAmount('-12.50')).to.equal(-12.5);
            expect(parseUsAmount('')).to.equal(null);
            expect(() => parseUsAmount('14.625,46')).to.throw(AuthorityFailure);
            expect(() => parseUsAmount('(12.00')).to.throw(AuthorityFailure);
        });

        it('reads dates, periods, types, currencies and numbers', () => {

            expect(parseDate('2025-12-01')).to.equal('2025-12-01');
            expect(parseDate('1/2/2025')).to.equal('2025-02-01');
            expect(parseDate('01/02/2025 10:31:00')).to.equal('2025-02-01');
            expect(parseDate('')).to.equal(null);
            expect(parseInvoiceType('6 - Factura B')).to.equal('6');
            expect(parseInvoiceType('011')).to.equal('11');
            expect(parseCurrency('$')).to.equal('PES');
            expect(parseCurrency('USD')).to.equal('DOL');
            expect(parseCurrency('dol')).to.equal('DOL');
            expect(parseCurrency('060')).to.equal('060');
            expect(parseDigits('00004')).to.equal('4');
            expect(parseDigits('0')).to.equal('0');
        });
    });
});
