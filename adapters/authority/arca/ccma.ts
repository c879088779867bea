import type { CcmaBalances, CcmaMovement } from '../../../core/domain/ccma.js';
import { dateToIso } from '../../../core/domain/time.js';
import { logicalUrl } from '../hosts.js';
import { failure } from './failures.js';
import { decodeEntities, pageText, parseForms, selectOptions } from './html.js';
import type { HttpResponse, HttpSession, TransportClock } from './http.js';
import { openService } from './services.js';
import { parseDate, parseUsAmount } from './authority-values.js';

// CCMA: service `ccam` on servicios2.afip.gob.ar (classic ASP, legacy TLS; AUTHORITY.md).
// procesa.asp (token/sign) -> seleccionaCuit.asp: the CUIT is selected (selectCuit, accion=s)
// before anything is read; a CUIT the selector does not offer has no CCMA account (a legal
// entity, a general-regime taxpayer): nothing is reported for it, never another CUIT's data.
// P02_ctacte.asp (form frm, calcula=S, then frm_p04 to P04) gives "Total Saldo Deudor" and
// "Total Saldo Acreedor"; ajax/ConsDeuFecSabana.asp the movements. Amounts in US notation
// ("14,625.46", negatives in parentheses). unknown: the movement columns; this client reads
// the ledger rows (CeldaBorde_ConsDeuFec) as 2 período, 3 impuesto, 4 concepto, 5 subconcepto,
// 6 descripción, 7 fecha, 8 debe, 9 haber, and computes the running balance (haber - debe).

export interface CcmaResult {
    balances: CcmaBalances;
    movements: CcmaMovement[];
}

const internals = {
    base: '/tramites_con_clave_fiscal/ccam',
    notApplicable: { balances: { saldoDeudor: null, saldoAcreedor: null }, movements: [] } as CcmaResult,

    total(html: string, label: RegExp): number | null {

        const match = new RegExp(`${label.source}[\\s\\S]*?CeldaTitularResaltado[^>]*>([\\s\\S]*?)<\\/td>`, 'i').exec(html);
        return match ? parseUsAmount(pageText(match[1]!), 'saldo') : null;
    },

    formFields(html: string, name: string): { action: string | null; fields: Record<string, string> } | null {

        const block = new RegExp(`<form\\b[^>]*\\bname\\s*=\\s*["']${name}["'][\\s\\S]*?<\\/form>`, 'i').exec(html)?.[0];
        const form = block ? parseForms(block)[0] : undefined;
        return form ? { action: form.action, fields: form.fields } : null;
    },

    options(html: string): string[] | null {

        return selectOptions(html, 'selectCuit')?.map((option) => option.value.replace(/\D/g, '')) ?? null;
    },

    period(date: Date): string {

        return `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${date.getUTCFullYear()}`;
    }
};

export const parseCcmaBalances = (html: string): CcmaBalances | null => {

    const text = decodeEntities(html);
    if (!/Total Saldo Deudor|Total Saldo Acreedor/i.test(text)) {
        return null;
    }

    return { saldoDeudor: internals.total(text, /Total Saldo Deudor:?/), saldoAcreedor: internals.total(text, /Total Saldo Acreedor:?/) };
};

export const parseCcmaMovements = (html: string): CcmaMovement[] => {

    const movements: CcmaMovement[] = [];
    let running = 0;
    for (const row of html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)) {
        if (!/CeldaBorde_ConsDeuFec/i.test(row[1]!)) {
            continue;
        }

        const cells = [...row[1]!.matchAll(/<td\b[^>]*>([\s\S]*?)<\/td>/gi)].map((cell) => pageText(cell[1]!));
        if (cells.length < 10 || !/^\d{2}\/\d{4}$/.test(cells[2]!)) {
            continue;
        }

        const debe = parseUsAmount(cells[8], 'debe');
        const haber = parseUsAmount(cells[9], 'haber');
        if (!debe && !haber) {
            continue;                                   // subtotal rows carry no amount
        }

        const fecha = parseDate(cells[7], 'fecha de movimiento');
        if (fecha === null) {
            throw failure('unexpected_page', 'CCMA: movimiento sin fecha');
        }

        running = Math.round((running + (haber ?? 0) - (debe ?? 0)) * 100) / 100;
        movements.push({
            orden: movements.length + 1,
            periodo: cells[2]!,
            impuesto: cells[3]!,
            concepto: cells[4]!,
            subconcepto: cells[5]!,
            descripcion: cells[6]!,
            fechaMovimiento: dateToIso(fecha),
            debe,
            haber,
            saldo: running
        });
    }

    return movements;
};

export const createCcma = (http: HttpSession, loginCuit: string, options: { clock: TransportClock; lookbackMonths: number }) => {

    let landing: string | null = null;
    const url = (path: string) => logicalUrl('ccam', `${internals.base}/${path}`);

    const expired = (response: HttpResponse): boolean => /caducada|sesi[oó]n (ha )?expirad/i.test(pageText(response.text()));

    // The selector: true once the CUIT is chosen, false when it has no account here.
    const select = async (cuit: string): Promise<boolean> => {

        if (landing === null) {
            landing = (await openService(http, loginCuit, 'ccma')).text();
        }

        let html = landing;
        if (!/selectCuit/i.test(html)) {
            html = await http.request({ url: url('seleccionaCuit.asp'), referer: url('') }, (response) => response.text());
        }

        const options = internals.options(html);
        if (!options) {
            return cuit === loginCuit;
        }

        if (!options.includes(cuit)) {
            return false;
        }

        await http.request({ method: 'POST', url: url('seleccionaCuit.asp'), referer: url('seleccionaCuit.asp'), retry: 'safe', form: { selectCuit: cuit, accion: 's' } }, (response) => {

            if (expired(response)) {
                throw failure('session_expired', 'CCMA seleccionaCuit');
            }
        });
        landing = '';
        return true;
    };

    const balances = async (): Promise<CcmaBalances> => {

        const p02 = await http.request({ url: url('P02_ctacte.asp'), referer: url('') }, (response) => {

            const form = internals.formFields(response.text(), 'frm');
            if (!form) {
                if (expired(response)) {
                    throw failure('session_expired', 'CCMA P02');
                }

                throw http.unexpected(response, 'ccma', 'P02_ctacte.asp', 'sin el formulario frm');
            }

            return form;
        });

        const calculated = await http.request({ method: 'POST', url: url('P02_ctacte.asp'), referer: url('P02_ctacte.asp'), retry: 'safe', form: { ...p02.fields, calcula: 'S' } }, (response) => response);
        let page = calculated;
        const next = internals.formFields(calculated.text(), 'frm_p04');
        if (next) {
            page = await http.request({ method: 'POST', url: new URL(next.action ?? 'P04_ctacte.asp', url('P02_ctacte.asp')), referer: url('P02_ctacte.asp'), retry: 'safe', form: next.fields }, (response) => response);
        }

        const parsed = parseCcmaBalances(page.text());
        if (parsed) {
            return parsed;
        }

        if (expired(page)) {
            throw failure('session_expired', 'CCMA P04');
        }

        // A computed page without the totals table: nothing owed nor in favour reported.
        if (/name\s*=\s*["']feccalculo["']/i.test(page.text())) {
            return { saldoDeudor: null, saldoAcreedor: null };
        }

        throw http.unexpected(page, 'ccma', 'P04_ctacte.asp', 'sin Total Saldo Deudor/Acreedor');
    };

    const movements = (): Promise<CcmaMovement[]> => {

        const today = new Date(options.clock.now());
        const from = internals.period(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - options.lookbackMonths + 1, 1)));
        const to = internals.period(today);
        const query = new URLSearchParams({ periodo: '', rango: '12', monoAut: 'Todos', tipoMov: 'Todos', perDesde1: from, perHasta1: to, periodoMinimo: from, periodoMaximo: to, ingreso: 'sabana' });
        return http.request({ url: url(`ajax/ConsDeuFecSabana.asp?${query.toString()}`), referer: url('P04_ctacte.asp') }, (response) => {

            if (response.status !== 200 || expired(response)) {
                throw expired(response) ? failure('session_expired', 'CCMA sábana') : http.unexpected(response, 'ccma', 'ConsDeuFecSabana.asp', `HTTP ${response.status}`);
            }

            const html = response.text();
            const rows = parseCcmaMovements(html);
            if (!rows.length && !/CeldaBorde_ConsDeuFec|no (se encontraron|registra) movimientos/i.test(html)) {
                throw http.unexpected(response, 'ccma', 'ConsDeuFecSabana.asp', 'sin filas reconocibles');
            }

            return rows;
        });
    };

    return {
        async ccma(cuit: string): Promise<CcmaResult> {

            if (!await select(cuit)) {
                return internals.notApplicable;
            }

            return { balances: await balances(), movements: await movements() };
        }
    };
};
