import type { CcmaBalances, CcmaMovement } from '../../../core/domain/ccma.js';
import { dateToIso } from '../../../core/domain/time.js';
import type { AuthorityCredentials } from '../../../core/ports/authority-client.js';
import { logicalUrl } from '../hosts.js';
import { headerKey } from './csv.js';
import { failure } from './failures.js';
import { pageText, parseTable } from './html.js';
import type { HttpSession } from './http.js';
import { openService, requireTaxpayerChoice } from './services.js';
import { parseAmount, requireDate } from './values.js';

// CCMA, the monotributo and autónomos current account. ASSUMED SURFACE: the page's raw format
// is not publicly documented, so this client and the simulated authority agree on two HTML
// pages: resumen.do with <table id="resumen"> (rows "Saldo deudor" and "Saldo acreedor";
// columns Capital, Accesorios, Total) and movimientos.do with <table id="movimientos">
// (Período, Impuesto, Concepto, Subconcepto, Descripción, Fecha, Debe, Haber, Saldo), amounts
// in Argentine notation. A missing balance cell is null (not reported), unlike 0,00.

const internals = {
    balances(html: string): CcmaBalances {

        const rows = parseTable(html, 'resumen');
        if (!rows) {
            if (/no se encontraron datos/i.test(pageText(html))) {
                return { saldoDeudor: null, saldoAcreedor: null };
            }

            throw failure('unexpected_page', 'CCMA: falta el resumen');
        }

        const header = rows[0]!.map(headerKey);
        const totalIndex = header.indexOf('total');
        const value = (label: RegExp): number | null => {

            const row = rows.slice(1).find((cells) => label.test(cells[0] ?? ''));
            if (!row) {
                return null;
            }

            if (totalIndex >= 0) {
                return parseAmount(row[totalIndex], 'saldo', true);
            }

            const parts = row.slice(1).map((cell) => parseAmount(cell, 'saldo', true)).filter((part): part is number => part !== null);
            return parts.length ? Math.round(parts.reduce((sum, part) => sum + part, 0) * 100) / 100 : null;
        };

        return { saldoDeudor: value(/deudor|deuda/i), saldoAcreedor: value(/acreedor|cr[eé]dito/i) };
    },

    movements(html: string): CcmaMovement[] {

        const rows = parseTable(html, 'movimientos');
        if (!rows) {
            if (/no se encontraron (datos|movimientos)/i.test(pageText(html))) {
                return [];
            }

            throw failure('unexpected_page', 'CCMA: falta la tabla de movimientos');
        }

        const header = rows[0]!.map(headerKey);
        const index = (...names: string[]): number => {

            const found = names.map((name) => header.indexOf(name)).find((position) => position >= 0);
            if (found === undefined) {
                throw failure('unexpected_page', `CCMA: falta la columna ${names[0]}`);
            }

            return found;
        };

        const columns = {
            periodo: index('periodo'),
            impuesto: index('impuesto'),
            concepto: index('concepto'),
            subconcepto: index('subconcepto'),
            descripcion: index('descripcion'),
            fecha: index('fecha', 'fecha de movimiento', 'fecha movimiento'),
            debe: index('debe'),
            haber: index('haber'),
            saldo: header.indexOf('saldo')
        };

        let running = 0;
        return rows.slice(1).filter((cells) => cells.length >= header.length).map((cells, position) => {

            const debe = parseAmount(cells[columns.debe], 'debe', true);
            const haber = parseAmount(cells[columns.haber], 'haber', true);
            running = Math.round((running + (haber ?? 0) - (debe ?? 0)) * 100) / 100;
            const stated = columns.saldo >= 0 ? parseAmount(cells[columns.saldo], 'saldo', true) : null;
            const periodo = (cells[columns.periodo] ?? '').trim();
            const period = /^(\d{1,2})\/(\d{4})$/.exec(periodo) ?? /^(\d{4})(\d{2})$/.exec(periodo);
            if (!period) {
                throw failure('unexpected_page', 'CCMA: período ilegible');
            }

            return {
                orden: position + 1,
                periodo: period[2]!.length === 4 ? `${period[1]!.padStart(2, '0')}/${period[2]}` : `${period[2]}/${period[1]}`,
                impuesto: (cells[columns.impuesto] ?? '').trim(),
                concepto: (cells[columns.concepto] ?? '').trim(),
                subconcepto: (cells[columns.subconcepto] ?? '').trim(),
                descripcion: (cells[columns.descripcion] ?? '').trim(),
                fechaMovimiento: dateToIso(requireDate(cells[columns.fecha], 'fecha de movimiento')),
                debe,
                haber,
                saldo: stated ?? running
            };
        });
    }
};

export const parseCcmaBalances = internals.balances;
export const parseCcmaMovements = internals.movements;

export const createCcma = (http: HttpSession, credentials: AuthorityCredentials) => {

    const page = <T>(path: string, read: (html: string) => T): Promise<T> => {

        return http.request({ url: logicalUrl('ccma', `/ccma/${path}?cuit=${credentials.representedCuit}`) }, (response) => {

            if (response.status !== 200) {
                throw failure('unexpected_page', `CCMA ${path}: HTTP ${response.status}`);
            }

            return read(response.text());
        });
    };

    return {
        async ccma(): Promise<{ balances: CcmaBalances; movements: CcmaMovement[] }> {

            const landing = await openService(http, credentials, 'ccma');
            requireTaxpayerChoice(landing, credentials, 'ccma');
            const [balances, movements] = await Promise.all([page('resumen.do', internals.balances), page('movimientos.do', internals.movements)]);
            return { balances, movements };
        }
    };
};
