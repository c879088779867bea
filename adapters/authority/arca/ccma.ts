import type { CcmaBalances, CcmaMovement } from '../../../core/domain/ccma.js';
import type { CcmaReading } from '../../../core/ports/authority-client.js';
import { dateToIso } from '../../../core/domain/time.js';
import { logicalUrl } from '../hosts.js';
import { failure, isAuthorityFailure } from './failures.js';
import { decodeEntities, pageText, parseForms, selectOptions } from './html.js';
import type { HttpResponse, HttpSession, TransportClock } from './http.js';
import { openService } from './services.js';
import { parseDate, parseUsAmount } from './authority-values.js';

// CCMA: service `ccam` on servicios2.afip.gob.ar (classic ASP, legacy TLS; docs/authority.md).
// procesa.asp (token/sign) -> seleccionaCuit.asp: the CUIT is selected (selectCuit, accion=s)
// before anything is read; a CUIT the selector does not offer has no CCMA account (a legal
// entity, a general-regime taxpayer): nothing is reported for it, never another CUIT's data.
// Two pages, two tables, two parsers: the balances are the totals of P04_ctacte.asp, reached
// by P02_ctacte.asp's calculation (form frm, calcula=S, then frm_p04); the movements are the
// "sábana" of ajax/ConsDeuFecSabana.asp: período, código, subcódigo, concepto, descripción,
// fecha and ONE signed amount in the last cell, plus "Saldo" rows (skipped). Amounts in US
// notation ("14,625.46", negatives in parentheses). A positive amount is a debit (debe) and a
// negative one a credit (haber), the sign of the P04 totals (a debt is positive there);
// `orden` is the row's position in the sábana and `saldo` the running haber - debe (negative:
// debtor, docs/api.md, Resources). A sábana that cannot be read is the movements' failure alone: the
// balances are still returned.


const internals = {
    base: '/tramites_con_clave_fiscal/ccam',
    notApplicable: { balances: { saldoDeudor: null, saldoAcreedor: null }, movements: [] } as CcmaReading,

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

const parseCcmaBalances = (html: string): CcmaBalances | null => {

    const text = decodeEntities(html);
    if (!/Total Saldo Deudor|Total Saldo Acreedor/i.test(text)) {
        return null;
    }

    return { saldoDeudor: internals.total(text, /Total Saldo Deudor:?/), saldoAcreedor: internals.total(text, /Total Saldo Acreedor:?/) };
};

// One sábana row: its cells told apart by what they hold (the exact column set is not public).
const sabanaRow = (cells: string[]): Omit<CcmaMovement, 'orden' | 'saldo'> | null => {

    const filled = cells.map((cell) => cell.replace(/\u00a0/g, ' ').trim()).filter((cell) => cell !== '' && cell !== '-');
    const periodAt = filled.findIndex((cell) => /^\d{2}\/\d{4}$/.test(cell));
    if (periodAt < 0 || filled.some((cell) => /^saldo\b/i.test(cell))) {
        return null;                                    // headings, totals and "Saldo" rows
    }

    const dateAt = filled.findIndex((cell, index) => index > periodAt && /^\d{1,2}\/\d{1,2}\/\d{4}$/.test(cell));
    if (dateAt < 0 || dateAt >= filled.length - 1) {
        throw failure('unexpected_page', 'CCMA: movimiento sin fecha o sin importe');
    }

    const amount = parseUsAmount(filled.at(-1), 'importe del movimiento') ?? 0;
    const between = [...filled.slice(periodAt + 1, dateAt), ...filled.slice(dateAt + 1, -1)];
    const codes = between.filter((cell) => /^\d{1,4}$/.test(cell));
    const texts = between.filter((cell) => !/^\d{1,4}$/.test(cell));
    return {
        periodo: filled[periodAt]!,
        impuesto: codes[0] ?? '',
        concepto: texts[0] ?? '',
        subconcepto: codes[1] ?? '',
        descripcion: texts.at(-1) ?? '',
        fechaMovimiento: dateToIso(parseDate(filled[dateAt], 'fecha de movimiento')!),
        debe: amount >= 0 ? amount : null,
        haber: amount < 0 ? -amount : null
    };
};

// The sábana's movements, in its order, each with its running balance.
const parseCcmaSabana = (html: string): CcmaMovement[] => {

    const movements: CcmaMovement[] = [];
    let running = 0;
    for (const row of html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)) {
        const movement = sabanaRow([...row[1]!.matchAll(/<td\b[^>]*>([\s\S]*?)<\/td>/gi)].map((cell) => pageText(cell[1]!)));
        if (movement) {
            running = Math.round((running + (movement.haber ?? 0) - (movement.debe ?? 0)) * 100) / 100;
            movements.push({ orden: movements.length + 1, ...movement, saldo: running });
        }
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

        await http.request({
            method: 'POST',
            url: url('seleccionaCuit.asp'),
            referer: url('seleccionaCuit.asp'),
            retry: 'safe',
            form: { selectCuit: cuit, accion: 's' }
        }, (response) => {

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

        const calculated = await http.request({
            method: 'POST',
            url: url('P02_ctacte.asp'),
            referer: url('P02_ctacte.asp'),
            retry: 'safe',
            form: { ...p02.fields, calcula: 'S' }
        }, (response) => response);
        let page = calculated;
        const next = internals.formFields(calculated.text(), 'frm_p04');
        if (next) {
            page = await http.request({
                method: 'POST',
                url: new URL(next.action ?? 'P04_ctacte.asp', url('P02_ctacte.asp')),
                referer: url('P02_ctacte.asp'),
                retry: 'safe',
                form: next.fields
            }, (response) => response);
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
        const query = new URLSearchParams({
            periodo: '',
            rango: '12',
            monoAut: 'Todos',
            tipoMov: 'Todos',
            perDesde1: from,
            perHasta1: to,
            periodoMinimo: from,
            periodoMaximo: to,
            ingreso: 'sabana'
        });
        return http.request({ url: url(`ajax/ConsDeuFecSabana.asp?${query.toString()}`), referer: url('P04_ctacte.asp') }, (response) => {

            if (response.status !== 200 || expired(response)) {
                throw expired(response) ? failure('session_expired', 'CCMA sábana') : http.unexpected(response, 'ccma', 'ConsDeuFecSabana.asp', `HTTP ${response.status}`);
            }

            const html = response.text();
            let rows: CcmaMovement[];
            try {
                rows = parseCcmaSabana(html);
            }
            catch (err) {
                throw http.unexpected(response, 'ccma', 'ConsDeuFecSabana.asp', err instanceof Error ? err.message : 'ilegible');
            }

            if (!rows.length && !/no (se encontraron|registra) movimientos|sin movimientos/i.test(pageText(html))) {
                throw http.unexpected(response, 'ccma', 'ConsDeuFecSabana.asp', 'sin filas reconocibles');
            }

            return rows;
        });
    };

    return {
        async ccma(cuit: string): Promise<CcmaReading> {

            if (!await select(cuit)) {
                return internals.notApplicable;
            }

            const read = await balances();
            // The movements are another page: their failure is theirs alone.
            const listed = await movements().catch((err: unknown) => {

                if (isAuthorityFailure(err)) {
                    return err;
                }

                throw err;
            });
            return { balances: read, movements: listed };
        }
    };
};
