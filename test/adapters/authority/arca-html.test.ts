import { expect } from 'chai';
import { decodeEntities, pageText } from '../../../adapters/authority/arca/html.js';

// The authority's pages are read as HTML reads character references: whatever a page holds,
// the text taken from it is text any database stores as it is.

describe('character references in the authority\'s pages', () => {

    it('reads named, decimal and hexadecimal references, astral characters included', () => {

        expect(
            decodeEntities('P&eacute;rez &AMP; Hijos &#241; &#xF1; &#X1F600; &quot;SRL&quot; &desconocida;')
        ).to.equal('Pérez & Hijos ñ ñ 😀 "SRL" &desconocida;');
    });

    it('reads the accented names of Latin-1, capitals apart from lower case', () => {

        expect(
            decodeEntities('NU&Ntilde;EZ y Nu&ntilde;ez, P&Eacute;REZ, G&Uuml;EMES, &iquest;&iexcl;, 1&ordm; &yuml;&nbsp;&euro;')
        ).to.equal('NUÑEZ y Nuñez, PÉREZ, GÜEMES, ¿¡, 1º ÿ €');
    });

    it('keeps a name it does not know as written, the names of an object\'s own machinery included', () => {

        expect(decodeEntities('&constructor; &__proto__; &toString; &hasOwnProperty;')).to.equal('&constructor; &__proto__; &toString; &hasOwnProperty;');
    });

    it('reads references to 128–159 as the windows-1252 characters pages written on Windows mean', () => {

        expect(decodeEntities('&#147;Comillas&#148; &#150; &#128;10 &#153; &#x9F; &#129;')).to.equal('“Comillas” – €10 ™ Ÿ \u0081');
    });

    it('reads a reference to no character or to half of a UTF-16 pair as U+FFFD, without failing', () => {

        for (const reference of ['&#0;', '&#xD800;', '&#57343;', '&#x110000;', '&#99999999999;', '&#xFFFFFFFFFFFF;']) {
            expect(decodeEntities(`a${reference}b`), reference).to.equal('a\uFFFDb');
        }

        expect(pageText('<td>N&#xD83D;&#xDE00;</td>')).to.equal('N\uFFFD\uFFFD');
    });
});
