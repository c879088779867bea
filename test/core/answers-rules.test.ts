import { expect } from 'chai';
import { agendaItems, monotributoPaymentDay, recategorizationDeadlines } from '../../core/domain/agenda.js';
import { normalizeInvoice } from '../../core/domain/invoice.js';
import type { InvoiceRecord } from '../../core/domain/invoice.js';
import { ivaNotApplicable, ivaPosition } from '../../core/domain/iva.js';
import type { MonotributoMonth } from '../../core/domain/monotributo.js';
import { monotributoControl, monthlyTotals, nextRecategorization, notApplicable, parseCategoryTable, tableInForce } from '../../core/domain/monotributo.js';
import { publishedTables } from '../../core/domain/monotributo-tables.js';
import { DomainError } from '../../core/domain/errors.js';
import { argentineHolidays } from '../../adapters/holidays/argentina.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { listMonotributoPortfolio, loadCategoryTable, monotributoSummariesOf } from '../../core/use-cases/monotributo.js';
import { memoryPorts, refusalOf } from '../support/memory-ports.js';

// docs/answers.md: the monotributo control, the agenda and the IVA position as pure rules, each
// against figures computed by hand (the comments show the sums).

const internals = {
    // Twelve months of the window ending 2026-02 (today 2026-03-10), each billing `amounts[i]`.
    window: (amounts: readonly number[]): MonotributoMonth[] => amounts.map((facturado, index) => ({
        mes: new Date(Date.UTC(2025, 2 + index, 1)).toISOString().slice(0, 7),
        facturado,
        compras: 0
    })),

    refusal(run: () => unknown): string {

        try {
            run();
        }
        catch (err) {
            expect(err).to.be.instanceOf(DomainError);
            return (err as DomainError).message;
        }

        return expect.fail('not refused');
    },

    invoice: (fields: Partial<InvoiceRecord>): InvoiceRecord => ({
        fecha: '2025-10-10', puntoVenta: '1', numeroDesde: '1', numeroHasta: '1', tipo: '11', codigoAutorizacion: null,
        counterpart: { tipoDocumento: null, numeroDocumento: null, nombre: null },
        impNetoGravado: null, impNetoNoGravado: null, impOpExentas: null, otrosTributos: null, iva: null,
        tipoCambio: 1, importeOriginal: 0, monedaOriginal: 'PES', importe: 0,
        ...fields
    })
};

describe('answers: monotributo rules (core, hand-computed)', () => {

    it('adds class C invoices, debit notes and receipts and subtracts credit notes; other types do not count', () => {

        const months = monthlyTotals([
            { mes: '2025-10', kind: 'issued', tipo: '11', importe: 1_000_000 },
            { mes: '2025-10', kind: 'issued', tipo: '12', importe: 50_000 },
            { mes: '2025-10', kind: 'issued', tipo: '15', importe: 200_000 },
            { mes: '2025-10', kind: 'issued', tipo: '13', importe: 300_000 },
            { mes: '2025-10', kind: 'issued', tipo: '213', importe: 100_000 },
            { mes: '2025-10', kind: 'issued', tipo: '1', importe: 999 },
            // Purchases: A 400.000 + B 100.000 + C 50.000 − NC A 30.000 = 520.000.
            { mes: '2025-10', kind: 'received', tipo: '1', importe: 400_000 },
            { mes: '2025-10', kind: 'received', tipo: '6', importe: 100_000 },
            { mes: '2025-10', kind: 'received', tipo: '11', importe: 50_000 },
            { mes: '2025-10', kind: 'received', tipo: '3', importe: 30_000 }
        ]);
        // 1.000.000 + 50.000 + 200.000 − 300.000 − 100.000 = 850.000
        expect(months).to.deep.equal([{ mes: '2025-10', facturado: 850_000, compras: 520_000 }]);
    });

    it('counts a USD invoice in pesos at its tipoCambio', () => {

        const usd = normalizeInvoice(internals.invoice({ tipo: '11', importeOriginal: 1000, monedaOriginal: 'DOL', tipoCambio: 1050.5 }));
        const pesos = normalizeInvoice(internals.invoice({ tipo: '11', importeOriginal: 200_000, importe: 200_000 }));
        const months = monthlyTotals([usd, pesos].map((invoice) => ({ mes: '2025-10', kind: 'issued' as const, tipo: invoice.tipo, importe: invoice.importe })));
        // 1.000 × 1.050,50 = 1.050.500, plus 200.000
        expect(months[0]!.facturado).to.equal(1_250_500);
    });

    it('takes the table in force on the day, not at the window start, and says when the newest is past its semester', () => {

        // Both windows cross a table's vigenciaDesde (2025-03..2026-02 crosses 2025-08-01 and
        // 2026-02-01; 2025-01..2025-12 crosses 2025-02-01 and 2025-08-01): 61.244.000 billed in
        // October 2025, category H.
        const months = [{ mes: '2025-10', facturado: 61_244_000, compras: 0 }];
        const march = monotributoControl({ today: '2026-03-10', categoria: 'H', tables: publishedTables, months });
        expect(march.facturado).to.equal(61_244_000);
        expect(march.ventana).to.deep.equal({ desde: '2025-03', hasta: '2026-02' });
        expect(march.tabla.vigenciaDesde).to.equal('2026-02-01');
        expect(march.tope).to.equal(70_113_407.33);
        // 61.244.000 / 70.113.407,33 = 0,87350
        expect(march.usoTope).to.equal(0.8735);
        expect(march.categoriaSegunFacturacion).to.equal('H');
        expect(march.riesgos).to.deep.equal(['tope_cerca']);

        const january = monotributoControl({ today: '2026-01-31', categoria: 'H', tables: publishedTables, months });
        expect(january.tabla.vigenciaDesde).to.equal('2025-08-01');
        expect(january.tope).to.equal(61_344_853.64);
        // 61.244.000 / 61.344.853,64 = 0,99836
        expect(january.usoTope).to.equal(0.9984);
        expect(january.tabla.desactualizada).to.equal(false);

        expect(tableInForce(publishedTables, '2026-07-31').choice.desactualizada).to.equal(false);
        const august = tableInForce(publishedTables, '2026-08-01').choice;
        expect(august).to.include({ vigenciaDesde: '2026-02-01', desactualizada: true });
        expect(august.aviso).to.contain('2026-02-01').and.to.contain('2026-08-01');
    });

    it('puts billing above K out of the regime', () => {

        const control = monotributoControl({ today: '2026-03-10', categoria: 'K', tables: publishedTables, months: internals.window([110_000_000, ...Array(11).fill(0)]) });
        expect(control.facturado).to.equal(110_000_000);
        expect(control.categoriaSegunFacturacion).to.equal(null);
        expect(control.fueraDelRegimen).to.equal(true);
        // 110.000.000 / 108.357.084,05 = 1,01516
        expect(control.usoTopeMaximo).to.equal(1.0152);
        expect(control.riesgos).to.deep.equal(['tope_superado', 'exclusion']);
        expect(control.proyeccion.mesSuperaTope).to.equal(null);
    });

    it('answers a CUIT with no invoices: zero in every month, category A implied, no risk', () => {

        const control = monotributoControl({ today: '2026-03-10', categoria: 'B', tables: publishedTables, months: [] });
        expect(control.meses).to.have.length(12);
        expect(control.meses.every((month) => month.facturado === 0 && month.compras === 0)).to.equal(true);
        expect(control).to.deep.include({ facturado: 0, usoTope: 0, categoriaSegunFacturacion: 'A', fueraDelRegimen: false, riesgos: [] });
        expect(control.proyeccion).to.deep.equal({ ritmoMensual: 0, mesSuperaTope: null });
        expect(control.compras).to.deep.include({ total: 0, umbralBienes: 86_685_667.24, umbralServicios: 43_342_833.62, superaUmbralServicios: false });
    });

    it('flags purchases reaching 40 % of K as a risk of exclusion, and 80 % as the goods threshold', () => {

        const months = internals.window(Array(12).fill(0)).map((month, index) => ({ ...month, compras: index === 0 ? 43_342_833.62 : 0 }));
        const control = monotributoControl({ today: '2026-03-10', categoria: 'A', tables: publishedTables, months });
        expect(control.compras).to.deep.include({ total: 43_342_833.62, superaUmbralServicios: true, superaUmbralBienes: false, usoTopeMaximo: 0.4 });
        expect(control.riesgos).to.deep.equal(['exclusion']);
    });

    it('projects the month the cap is passed at the last three months\' pace', () => {

        // 9 × 5.000.000 + 3 × 8.000.000 = 69.000.000 of H's 70.113.407,33. One month ahead the
        // window drops 5.000.000 and adds 8.000.000: 72.000.000 > the cap, in 2026-03.
        const rising = monotributoControl({ today: '2026-03-10', categoria: 'H', tables: publishedTables, months: internals.window([...Array(9).fill(5_000_000), 8_000_000, 8_000_000, 8_000_000]) });
        expect(rising.proyeccion).to.deep.equal({ ritmoMensual: 8_000_000, mesSuperaTope: '2026-03' });

        const flat = monotributoControl({ today: '2026-03-10', categoria: 'H', tables: publishedTables, months: internals.window(Array(12).fill(4_000_000)) });
        expect(flat.proyeccion).to.deep.equal({ ritmoMensual: 4_000_000, mesSuperaTope: null });
    });

    it('names the next recategorization window and the semester it evaluates', () => {

        expect(nextRecategorization('2026-03-10')).to.deep.equal({ desde: '2026-07-15', hasta: '2026-08-05', enCurso: false, evaluaDesde: '2025-07', evaluaHasta: '2026-06' });
        expect(nextRecategorization('2026-01-20')).to.deep.equal({ desde: '2026-01-15', hasta: '2026-02-05', enCurso: true, evaluaDesde: '2025-01', evaluaHasta: '2025-12' });
        expect(nextRecategorization('2026-08-06')).to.include({ desde: '2027-01-15', hasta: '2027-02-05' });
    });

    it('says when the control does not apply', () => {

        expect(notApplicable(true)).to.equal(null);
        expect(notApplicable(false)!.motivo).to.contain('no es monotributista');
        expect(notApplicable(null)!.motivo).to.contain('aún no se sincronizó');
    });

    it('loads a valid table and refuses a wrong one in Spanish, naming every failure', () => {

        const topes = { A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8, I: 9, J: 10, K: 11 };
        expect(parseCategoryTable({ vigenciaDesde: '2026-08-01', fuente: ' ARCA ', topes })).to.deep.equal({ vigenciaDesde: '2026-08-01', fuente: 'ARCA', topes });

        const missing = internals.refusal(() => parseCategoryTable({ vigenciaDesde: '2026-08-01', fuente: 'ARCA', topes: { A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8, I: 9, J: 10 } }));
        expect(missing).to.equal("El campo 'topes' debe tener exactamente las 11 categorías, de la A a la K.");
        const wrong = internals.refusal(() => parseCategoryTable({ vigenciaDesde: '2026-02-30', fuente: '', topes: { ...topes, C: -3, E: 4 } }));
        expect(wrong).to.contain("'vigenciaDesde'").and.to.contain("'fuente'")
            .and.to.contain('El tope de la categoría C debe ser un importe positivo.')
            .and.to.contain('El tope de la categoría E debe ser mayor que el de la D.');
        expect(internals.refusal(() => parseCategoryTable([1, 2]))).to.contain('objeto JSON');
    });

    it('ships the four tables of MONOTRIBUTO.md, each valid', () => {

        expect(publishedTables.map((table) => table.vigenciaDesde)).to.deep.equal(['2024-08-01', '2025-02-01', '2025-08-01', '2026-02-01']);
        for (const table of publishedTables) {
            expect(parseCategoryTable(table)).to.deep.equal(table);
        }

        expect(publishedTables[1]!.topes.K).to.equal(82_370_281.28);
        expect(publishedTables[3]!.topes.A).to.equal(10_277_988.13);
    });
});

describe('answers: agenda rules (core, hand-computed)', () => {

    const holiday = (days: readonly string[]) => (day: string) => days.includes(day);

    it('moves the 20th past a holiday and a weekend', () => {

        // 2025-06-20 is a Friday and a national holiday: Monday the 23rd.
        expect(monotributoPaymentDay('2025-06', holiday(['2025-06-20']))).to.equal('2025-06-23');
        // 2025-07-20 is a Sunday: Monday the 21st.
        expect(monotributoPaymentDay('2025-07', holiday([]))).to.equal('2025-07-21');
        expect(monotributoPaymentDay('2025-10', holiday([]))).to.equal('2025-10-20');
    });

    it('knows Argentina\'s national holidays from the library', () => {

        expect(argentineHolidays.isHoliday('2025-06-20')).to.equal(true);
        expect(argentineHolidays.isHoliday('2025-07-09')).to.equal(true);
        expect(argentineHolidays.isHoliday('2025-06-19')).to.equal(false);
        expect(monotributoPaymentDay('2025-06', argentineHolidays.isHoliday)).to.equal('2025-06-23');
    });

    it('lists the recategorization deadlines in a range', () => {

        expect(recategorizationDeadlines('2025-06-01', '2026-02-05').map((deadline) => deadline.fecha)).to.deep.equal(['2025-08-05', '2026-02-05']);
        expect(recategorizationDeadlines('2025-08-06', '2026-02-04')).to.deep.equal([]);
    });

    it('orders SCT items, payments and deadlines by date, then CUIT', () => {

        const clients = [
            { id: 1, cuit: '27000000002', displayCuit: '27-00000000-2', nombre: 'Zeta', monotributista: true },
            { id: 2, cuit: '20000000001', displayCuit: '20-00000000-1', nombre: 'Alfa', monotributista: false }
        ];
        const items = agendaItems({
            desde: '2025-06-01',
            hasta: '2025-08-10',
            clients,
            isHoliday: holiday(['2025-06-20']),
            sct: [
                { clientId: 2, kind: 'vencimiento', fecha: '2025-06-23', impuesto: 'IVA', concepto: 'DDJJ', periodo: '202505', detalle: 'Declaración jurada mensual', importe: null },
                { clientId: 2, kind: 'deuda', fecha: '2025-07-01', impuesto: 'Ganancias', concepto: 'Anticipo', periodo: '202500', detalle: null, importe: 1234.567 },
                { clientId: 1, kind: 'ddjj', fecha: '2025-09-01', impuesto: 'IVA', concepto: 'DDJJ', periodo: '202507', detalle: null, importe: null }
            ]
        });
        expect(items.map((item) => [item.fecha, item.cuit, item.tipo, item.importe])).to.deep.equal([
            ['2025-06-23', '20000000001', 'sct_vencimiento', null],
            ['2025-06-23', '27000000002', 'monotributo_pago', null],
            ['2025-07-01', '20000000001', 'sct_deuda', 1234.57],
            ['2025-07-21', '27000000002', 'monotributo_pago', null],
            ['2025-08-05', '27000000002', 'recategorizacion', null]
        ]);
        expect(items[0]!.descripcion).to.equal('Vencimiento de IVA – DDJJ, período 05/2025: Declaración jurada mensual.');
        expect(items[1]!.descripcion).to.equal('Pago mensual del monotributo, período 06/2025.');
        expect(items[2]!.descripcion).to.equal('Vence la deuda de Ganancias – Anticipo, período 2025.');
        expect(items[4]!.descripcion).to.equal('Último día para recategorizarse en el monotributo (evalúa 07/2024 a 06/2025).');
    });
});

describe('answers: IVA position rules (core, hand-computed)', () => {

    it('nets an RI month with A, B and M vouchers and credit notes on both sides', () => {

        const position = ivaPosition('2026-09', '2026-10', [
            // Débito: 21.000 + 4.200 + 2.100 − 1.050 + 210 = 26.460 (5 vouchers)
            { mes: '2026-10', kind: 'issued', tipo: '1', iva: 21_000, cantidad: 1 },
            { mes: '2026-10', kind: 'issued', tipo: '6', iva: 4_200, cantidad: 1 },
            { mes: '2026-10', kind: 'issued', tipo: '51', iva: 2_100, cantidad: 1 },
            { mes: '2026-10', kind: 'issued', tipo: '3', iva: 1_050, cantidad: 1 },
            { mes: '2026-10', kind: 'issued', tipo: '7', iva: 210, cantidad: 1 },
            // Crédito: 10.500 + 630 − 2.100 − 105 = 8.925 (4 vouchers); B and C give none.
            { mes: '2026-10', kind: 'received', tipo: '1', iva: 10_500, cantidad: 1 },
            { mes: '2026-10', kind: 'received', tipo: '51', iva: 630, cantidad: 1 },
            { mes: '2026-10', kind: 'received', tipo: '3', iva: 2_100, cantidad: 1 },
            { mes: '2026-10', kind: 'received', tipo: '53', iva: 105, cantidad: 1 },
            { mes: '2026-10', kind: 'received', tipo: '6', iva: 999, cantidad: 1 },
            { mes: '2026-10', kind: 'received', tipo: '11', iva: 0, cantidad: 2 }
        ]);
        expect(position.meses).to.deep.equal([
            { mes: '2026-09', debitoFiscal: 0, creditoFiscal: 0, saldoTecnico: 0, comprobantesEmitidos: 0, comprobantesRecibidos: 0 },
            { mes: '2026-10', debitoFiscal: 26_460, creditoFiscal: 8_925, saldoTecnico: 17_535, comprobantesEmitidos: 5, comprobantesRecibidos: 4 }
        ]);
        expect(position.totales).to.deep.equal({ debitoFiscal: 26_460, creditoFiscal: 8_925, saldoTecnico: 17_535 });
        expect(position.excluye.join(' ')).to.contain('Percepciones').and.to.contain('Saldos a favor');
    });

    it('applies to a Responsable Inscripto only', () => {

        expect(ivaNotApplicable({ tipo: 'persona-fisica', monotributista: false })).to.equal(null);
        expect(ivaNotApplicable({ tipo: 'persona-juridica', monotributista: null })).to.equal(null);
        expect(ivaNotApplicable({ tipo: 'persona-fisica', monotributista: true })!.motivo).to.contain('monotributista');
        expect(ivaNotApplicable({ tipo: 'persona-fisica', monotributista: null })!.motivo).to.contain('aún no se sincronizó');
    });
});

describe('answers: use cases over the in-memory ports', () => {

    it('orders the portfolio by use of the cap, filters by risk and loads a table', async () => {

        const memory = memoryPorts({ now: '2026-03-10T15:00:00Z' });
        const owner = memory.account();
        const add = (id: number, cuit: string, sortName: string, categoria: string | null) => {

            memory.world.clients.push({
                id, publicId: `p${id}`, accountId: owner.accountId, cuit: cuit as never, tipo: 'persona-fisica', nombre: 'N', apellido: sortName,
                razonSocial: null, representativeId: null, displayName: sortName, sortName, email: null, telefono: null,
                monotributista: true, autonomo: false, categoria: categoria as never, dataVersion: 1, sealedKey: null
            });
        };
        add(1, '20000000001', 'a', 'A');
        add(2, '20000000002', 'b', 'H');
        add(3, '20000000003', 'c', null);
        // A: 12.000.000 of 10.277.988,13 (1,1675); H: 60.000.000 − 3.000.000 of 70.113.407,33 (0,8130).
        memory.world.invoices.push(
            { clientId: 1, mes: '2025-12', kind: 'issued', tipo: '11', importe: 12_000_000, iva: 0 },
            { clientId: 2, mes: '2025-06', kind: 'issued', tipo: '11', importe: 60_000_000, iva: 0 },
            { clientId: 2, mes: '2025-07', kind: 'issued', tipo: '13', importe: 3_000_000, iva: 0 },
            { clientId: 2, mes: '2026-03', kind: 'issued', tipo: '11', importe: 99_000_000, iva: 0 }
        );

        const all = await listMonotributoPortfolio(memory.ports, owner, { query: {} });
        expect(all.data.map((row) => [row.cuit, row.usoTope, row.riesgos])).to.deep.equal([
            ['20000000001', 1.1675, ['tope_superado']],
            ['20000000002', 0.813, ['tope_cerca']],
            ['20000000003', null, []]
        ]);
        const near = await listMonotributoPortfolio(memory.ports, owner, { query: { riesgo: 'tope_cerca' } });
        expect(near.data.map((row) => row.cuit)).to.deep.equal(['20000000002']);
        expect(near.pagination.total).to.equal(1);

        const refused = await refusalOf(loadCategoryTable(memory.ports, { vigenciaDesde: '2026-08-01', fuente: 'ARCA', topes: {} }));
        expect(refused.message).to.equal("El campo 'topes' debe tener exactamente las 11 categorías, de la A a la K.");
        const caps = { A: 11e6, B: 16e6, C: 22e6, D: 28e6, E: 33e6, F: 41e6, G: 49e6, H: 75e6, I: 84e6, J: 96e6, K: 116e6 };
        expect((await loadCategoryTable(memory.ports, { vigenciaDesde: '2026-08-01', fuente: 'ARCA', topes: caps })).outcome).to.equal('created');
        memory.clock.set('2026-08-10T15:00:00Z');
        const august = await listMonotributoPortfolio(memory.ports, owner, { query: {} });
        expect(august.tabla).to.include({ vigenciaDesde: '2026-08-01', desactualizada: false });
    });

    it('reads a page of la cartera\'s caps in one aggregate, whatever its number of CUITs', async () => {

        const memory = memoryPorts({ now: '2026-03-10T15:00:00Z' });
        const owner = memory.account();
        const other = memory.account();
        const add = (id: number, accountId: number, monotributista: boolean) => memory.world.clients.push({
            id, publicId: `p${id}`, accountId, cuit: `2000000000${id}` as never, tipo: 'persona-fisica', nombre: 'N', apellido: `c${id}`,
            razonSocial: null, representativeId: null, displayName: `c${id}`, sortName: `c${id}`, email: null, telefono: null,
            monotributista, autonomo: !monotributista, categoria: (monotributista ? 'A' : null) as never, dataVersion: 1, sealedKey: null
        });
        add(1, owner.accountId, true);
        add(2, owner.accountId, true);
        add(3, owner.accountId, false);
        add(4, other.accountId, true);
        // 1: 9.000.000 of A's 10.277.988,13 (0,8757); 2 nothing.
        memory.world.invoices.push({ clientId: 1, mes: '2025-12', kind: 'issued', tipo: '11', importe: 9_000_000, iva: 0 });
        let reads = 0;
        const { monotributoMonths } = memory.ports.answers;
        memory.ports.answers.monotributoMonths = (...args) => {

            reads++;
            return monotributoMonths(...args);
        };

        const page = await monotributoSummariesOf(memory.ports, owner, ['20000000001', '20000000002', '20000000003', '20000000004'] as Cuit[]);
        expect(reads).to.equal(1);
        expect([...page.values()].map((row) => [row.cuit, row.usoTope, row.riesgos]), 'no cap for an autónomo nor another account\'s CUIT').to.deep.equal([
            ['20000000001', 0.8757, ['tope_cerca']],
            ['20000000002', 0, []]
        ]);
    });
});
