import { expect } from 'chai';
import { createCookieJar } from '../adapters/authority/arca/cookies.js';
import { parseAmount, parseCurrency, parseDate, parseDigits, parseInvoiceType, parsePeriod } from '../adapters/authority/arca/values.js';
import { createRouter } from '../adapters/authority/hosts.js';
import { startSimulatedAuthority } from '../adapters/authority/simulated/index.js';
import { AuthorityFailure } from '../core/ports/authority-client.js';

// The small pieces under the arca adapter: its cookie jar, the routing of every host to one
// server, and the reading of the authority's values.

describe('arca adapter pieces', () => {

    describe('cookie jar', () => {

        it('sends host-only cookies to their host and path, domain cookies to every subdomain, never another site\'s', () => {

            const jar = createCookieJar();
            const auth = new URL('https://auth.afip.gob.ar/contribuyente_/login.xhtml');
            jar.store(auth, ['JSESSIONID=a1; Path=/contribuyente_; HttpOnly', 'CF=c2; Domain=.afip.gob.ar; Path=/; Secure', 'EVIL=x; Domain=example.com; Path=/']);
            expect(jar.header(new URL('https://auth.afip.gob.ar/contribuyente_/loginClave.xhtml'))).to.equal('JSESSIONID=a1; CF=c2');
            expect(jar.header(new URL('https://auth.afip.gob.ar/otro/'))).to.equal('CF=c2');
            expect(jar.header(new URL('https://fes.afip.gob.ar/mcmp/jsp/index.do'))).to.equal('CF=c2');
            expect(jar.header(new URL('https://auth.afip.gob.ar/contribuyente_x'))).to.equal('CF=c2');
        });

        it('replaces, expires and deletes cookies, and splits folded Set-Cookie headers', () => {

            const jar = createCookieJar();
            const url = new URL('https://fes.afip.gob.ar/mcmp/');
            jar.store(url, ['A=1; Path=/, B=2; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/']);
            expect(jar.header(url)).to.equal('A=1; B=2');
            jar.store(url, ['A=3; Path=/', 'B=; Max-Age=0; Path=/', 'C=old; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
            expect(jar.header(url)).to.equal('A=3');
            jar.clear();
            expect(jar.header(url)).to.equal(null);
        });
    });

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

        it('reads dates, periods, types, currencies and numbers', () => {

            expect(parseDate('2025-12-01')).to.equal('2025-12-01');
            expect(parseDate('1/2/2025')).to.equal('2025-02-01');
            expect(parseDate('01/02/2025 10:31:00')).to.equal('2025-02-01');
            expect(parseDate('')).to.equal(null);
            expect(parsePeriod('202405')).to.equal('202405');
            expect(parsePeriod('2024-05')).to.equal('202405');
            expect(parsePeriod('5/2024')).to.equal('202405');
            expect(parsePeriod('2024')).to.equal('202400');
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
