import type { ArcaMeter } from '../../../core/domain/arca-meter.js';
import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import type { DateRange } from '../../../core/domain/period.js';
import type { SimulatedTaxpayer } from './data.js';
import { invoicesIn } from './data.js';
import { expectedMeter } from './meter.js';
import { servedInvoice } from './mis-comprobantes.js';
import type { SimulatedState } from './state.js';

// What the simulated authority serves for a CUIT, as the scraper should read it back: the
// oracle every end-to-end test compares the stored data with.

export interface ExpectedData extends SimulatedTaxpayer {
    // ARCA's meter as read with the registry (null: none read).
    meter: ArcaMeter | null;
    invoicesIn(kind: InvoiceKind, range: DateRange): InvoiceRecord[];
    summary(range: DateRange): {
        issued: { count: number; importe: number };
        received: { count: number; importe: number };
        deuda: number; vencimientos: number; ddjj: number;
        movements: number; notifications: { total: number; read: number; unread: number };
    };
}

export const expectedOf = (state: SimulatedState, cuit: string): ExpectedData => {

    const data = state.taxpayer(cuit);
    const served = (list: InvoiceRecord[]) => list.map((invoice) => servedInvoice(invoice, state.generation));
    return {
        ...data,
        issued: served(data.issued),
        received: served(data.received),
        meter: expectedMeter(data, state.today),
        invoicesIn: (kind, range) => served(invoicesIn(data[kind], range)),
        summary(range) {

            const sum = (list: InvoiceRecord[]) => ({
                count: list.length,
                importe: Math.round(list.reduce((total, invoice) => total + invoice.importe, 0) * 100) / 100
            });
            const read = data.notifications.filter((item) => item.readAtAuthority).length;
            return {
                issued: sum(invoicesIn(data.issued, range)),
                received: sum(invoicesIn(data.received, range)),
                deuda: data.sct.deuda.length,
                vencimientos: data.sct.vencimientos.length,
                ddjj: data.sct.ddjj.length,
                movements: data.ccma.movements.length,
                notifications: { total: data.notifications.length, read, unread: data.notifications.length - read }
            };
        }
    };
};
