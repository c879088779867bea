import { expect } from 'chai';
import { capCrossing, capStanding } from '../../core/domain/monotributo.js';
import { publishedTables } from '../../core/domain/monotributo-tables.js';

// core/domain/monotributo.ts: where a monotributista's billing of the window stands against its
// caps, and the `monotributo.tope` a rise announces (docs/answers.md). Today 2026-03-15: the
// table in force since 2026-02-01, A's cap 10.277.988,13 (80 %: 8.222.390,504), K's
// 108.357.084,05; the window 2025-03 to 2026-02.

describe('monotributo cap levels (core)', () => {

    const today = '2026-03-15';
    const levelOf = (categoria: string | null, facturado: number) => capStanding(publishedTables, today, categoria, facturado).level;

    it('levels the billing: under 80 % 0, from 80 % 1, past the category\'s cap 2, past K\'s 3', () => {

        expect(levelOf('A', 8_222_390.5)).to.equal(0);
        expect(levelOf('A', 8_222_390.51)).to.equal(1);
        expect(levelOf('A', 10_277_988.13), 'at the cap, not past it').to.equal(1);
        expect(levelOf('A', 10_277_988.14)).to.equal(2);
        expect(levelOf('A', 108_357_084.05)).to.equal(2);
        expect(levelOf('A', 108_357_084.06)).to.equal(3);
        expect(levelOf('K', 108_357_084.06)).to.equal(3);
    });

    it('knows no category cap for an unknown category, only K\'s', () => {

        expect(capStanding(publishedTables, today, null, 50_000_000)).to.deep.include({ level: 0, tope: null, topeMaximo: 108_357_084.05 });
        expect(levelOf('Z', 200_000_000)).to.equal(3);
    });

    it('reads the table in force on the day and the window before its month', () => {

        expect(capStanding(publishedTables, '2026-01-20', 'A', 8_000_000)).to.deep.include({
            level: 1, tope: 8_992_597.87, ventana: { desde: '2025-01', hasta: '2025-12' }
        });
    });

    it('announces a rise with the highest threshold crossed and the figures, never staying or falling', () => {

        const standing = capStanding(publishedTables, today, 'A', 10_700_000);
        expect(capCrossing('20123456786', 'A', standing, 0)).to.deep.equal({
            umbral: 'tope_superado',
            categoria: 'A',
            facturado: 10_700_000,
            tope: 10_277_988.13,
            usoTope: 1.0411,
            topeMaximo: 108_357_084.05,
            usoTopeMaximo: 0.0987,
            ventana: { desde: '2025-03', hasta: '2026-02' },
            listado: '/v1/cuits/20123456786/monotributo'
        });
        expect(capCrossing('20123456786', 'A', standing, 1)?.umbral, 'from 80 % past the cap').to.equal('tope_superado');
        expect(capCrossing('20123456786', 'A', standing, 2), 'staying').to.equal(null);
        expect(capCrossing('20123456786', 'A', standing, 3), 'falling').to.equal(null);
        expect(capCrossing('20123456786', 'A', capStanding(publishedTables, today, 'A', 1_000), 0), 'under 80 %').to.equal(null);
        expect(capCrossing('20123456786', null, capStanding(publishedTables, today, null, 120_000_000), 0)).to.deep.include({
            umbral: 'fuera_del_regimen', categoria: null, tope: null, usoTope: null, usoTopeMaximo: 1.1074
        });
    });
});
