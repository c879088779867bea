import type { ArcaMeter } from '../../../core/domain/arca-meter.js';
import type { Categoria } from '../../../core/domain/client.js';
import { categories } from '../../../core/domain/client.js';
import { firstDayOf, lastDayOf } from '../../../core/domain/months.js';
import { billingTypes, billingWindow, nextRecategorization, signOf, tableInForce } from '../../../core/domain/monotributo.js';
import { publishedTables } from '../../../core/domain/monotributo-tables.js';
import type { SimulatedTaxpayer } from './data.js';

// ARCA's own meter as the simulated authority answers it (docs/authority.md, ARCA's meter), a
// pure function of the taxpayer's data and the reference day: CalcularFacturacion's `d` (its
// billing of the 12 complete months before today's, counted as arcasync counts it; a taxpayer
// with none answers 0, as the real one does on an incomplete page) and deberecategorizar (the
// next window; the alert shown while it is open and the billing implies another category).

const internals = {
    local: (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`,

    billing(taxpayer: SimulatedTaxpayer, today: string): { valor: number; desde: string; hasta: string } {

        const window = billingWindow(today);
        const desde = firstDayOf(window.desde);
        const hasta = lastDayOf(window.hasta);
        const cents = taxpayer.issued
            .filter((invoice) => invoice.fecha >= desde && invoice.fecha <= hasta)
            .reduce((sum, invoice) => sum + signOf(billingTypes, invoice.tipo) * Math.round(invoice.importe * 100), 0);
        return { valor: cents / 100, desde, hasta };
    },

    cap: (taxpayer: SimulatedTaxpayer, today: string): number => {

        const letter = taxpayer.registry.categoria as Categoria | null;
        return letter && categories.includes(letter) ? tableInForce(publishedTables, today).table.topes[letter] : 0;
    }
};

export const simulatedBillingMeter = (taxpayer: SimulatedTaxpayer, today: string) => {

    const { valor, desde, hasta } = internals.billing(taxpayer, today);
    const valorTope = internals.cap(taxpayer, today);
    return {
        d: {
            valor,
            valorTope,
            fechas: `${internals.local(desde)} al ${internals.local(hasta)}`,
            alertaVisible: valorTope > 0 && valor >= valorTope * 0.8,
            peligroVisible: valorTope > 0 && valor > valorTope
        }
    };
};

export const simulatedRecategorization = (taxpayer: SimulatedTaxpayer, today: string) => {

    const window = nextRecategorization(today);
    const { valor } = internals.billing(taxpayer, today);
    const implied = categories.find((letter) => valor <= tableInForce(publishedTables, today).table.topes[letter]) ?? null;
    return {
        fechaDesdeRecategorizacion: `${window.desde}T00:00:00`,
        fechaHastaRecategorizacion: `${window.hasta}T23:59:59`,
        showAlertaRecategorizacion: window.enCurso && implied !== taxpayer.registry.categoria
    };
};

// The meter as the scraper reads it back (the oracle's): none where the dashboard shows no
// category, a 0 left unknown.
export const expectedMeter = (taxpayer: SimulatedTaxpayer, today: string): ArcaMeter | null => {

    if (!taxpayer.registry.monotributista || !taxpayer.registry.categoria) {
        return null;
    }

    const { d } = simulatedBillingMeter(taxpayer, today);
    const recategorization = simulatedRecategorization(taxpayer, today);
    return {
        facturado: d.valor > 0 ? d.valor : null,
        tope: d.valorTope > 0 ? d.valorTope : null,
        periodo: d.fechas,
        debeRecategorizar: recategorization.showAlertaRecategorizacion,
        recategorizacionDesde: recategorization.fechaDesdeRecategorizacion.slice(0, 10),
        recategorizacionHasta: recategorization.fechaHastaRecategorizacion.slice(0, 10)
    };
};
