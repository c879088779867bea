import { randomUUID } from 'node:crypto';
import type { App } from '../app/compose.js';
import { displayName, sortKey } from '../core/domain/client.js';
import type { Cuit } from '../core/domain/cuit.js';
import type { InvoiceRecord } from '../core/domain/invoice.js';
import type { SctData } from '../core/domain/sct.js';
import { assignTag } from '../core/use-cases/staff/assign-tag.js';
import { createAccount } from '../core/use-cases/staff/create-account.js';
import { createTag } from '../core/use-cases/staff/create-tag.js';
import { createToken } from '../core/use-cases/staff/create-token.js';
import { createUser } from '../core/use-cases/staff/create-user.js';

// The bench's data set, written through the same use cases and repositories as staff and the
// sync: one account (owner token) with 1,000 CUITs, a few tagged; one CUIT with 100,000
// issued invoices over the last 12 months and its SCT.

export interface BenchData {
    token: string;
    cuit: string;              // the CUIT with the invoices and SCT
    month: { from: string; to: string; invoices: number };
}

const internals = {
    clients: 1_000,
    invoices: 100_000,
    months: 12,
    chunk: 5_000,

    cuitOf: (i: number): Cuit => `20${String(10_000_000 + i).padStart(8, '0')}9` as Cuit,

    iso: (date: Date): string => date.toISOString().slice(0, 10),

    // 12 whole UTC months ending with the previous one; the last is the month the bench reads.
    months_(now: Date): { from: string; to: string }[] {

        const list = [];
        for (let m = internals.months; m >= 1; m--) {
            const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m, 1));
            const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m + 1, 0));
            list.push({ from: internals.iso(first), to: internals.iso(last) });
        }

        return list;
    },

    invoice(n: number, fecha: string): InvoiceRecord {

        const neto = 1000 + (n % 977);
        const iva = Math.round(neto * 21) / 100;
        return {
            fecha,
            tipo: n % 3 === 0 ? '6' : '1',
            puntoVenta: '00002',
            numeroDesde: String(n).padStart(8, '0'),
            numeroHasta: String(n).padStart(8, '0'),
            codigoAutorizacion: `7412345${String(n).padStart(7, '0')}`,
            counterpart: { tipoDocumento: '80', numeroDocumento: `30${String(70_000_000 + (n % 5_000)).padStart(8, '0')}1`, nombre: `Cliente ${n % 5_000} SA` },
            impNetoGravado: neto,
            impNetoNoGravado: null,
            impOpExentas: null,
            otrosTributos: null,
            iva,
            tipoCambio: 1,
            importeOriginal: neto + iva,
            monedaOriginal: 'PES',
            importe: neto + iva
        };
    },

    sct(): SctData {

        const deuda = Array.from({ length: 12 }, (_, i) => ({
            establecimiento: '0',
            impuesto: i % 2 ? '30 - IVA' : '10 - Ganancias personas humanas',
            concepto: '19 - Obligación mensual',
            subconcepto: '19 - Obligación mensual',
            periodo: `2026${String(i + 1).padStart(2, '0')}`,
            antCuota: '0',
            vencimiento: i % 4 ? `2026-${String(i + 1).padStart(2, '0')}-18T00:00:00.000Z` : null,
            saldo: 15000.5 + i,
            intResarcitorios: 320.25,
            intPunitorios: 0
        }));
        const vencimientos = Array.from({ length: 6 }, (_, i) => ({
            impuesto: '30 - IVA',
            concepto: '19 - Obligación mensual',
            subconcepto: '19 - Obligación mensual',
            periodo: `2026${String(i + 1).padStart(2, '0')}`,
            antCuota: '0',
            vencimiento: `2026-${String(i + 2).padStart(2, '0')}-20T00:00:00.000Z`,
            detalle: 'Declaración jurada mensual'
        }));
        const ddjj = Array.from({ length: 6 }, (_, i) => ({
            establecimiento: '0',
            impuesto: '30 - IVA',
            concepto: '19 - Obligación mensual',
            subconcepto: '19 - Obligación mensual',
            periodo: `2026${String(i + 1).padStart(2, '0')}`,
            antCuota: '0',
            vencimiento: `2026-${String(i + 2).padStart(2, '0')}-18T00:00:00.000Z`
        }));

        return { deuda, vencimientos, ddjj };
    }
};

export const seedBench = async (app: App): Promise<BenchData> => {

    const { ports } = app;
    const now = ports.clock.now();
    const { id: accountId } = await createAccount(ports, { name: 'Estudio Bench' });
    const { id: userId } = await createUser(ports, { accountId, email: `bench-${randomUUID().slice(0, 8)}@example.com`, role: 'owner' });
    const { token } = await createToken(ports, { userId });

    // 1,000 CUITs, a few at a time (each insert reads its row back).
    const ids: number[] = [];
    for (let i = 0; i < internals.clients; i += 20) {
        const batch = await Promise.all(Array.from({ length: Math.min(20, internals.clients - i) }, (_, j) => {

            const n = i + j;
            const tipo = n % 4 === 0 ? 'persona-juridica' as const : 'persona-fisica' as const;
            const names = tipo === 'persona-fisica'
                ? { nombre: `Nombre${n}`, apellido: `Apellido${String(n).padStart(4, '0')}`, razonSocial: null }
                : { nombre: null, apellido: null, razonSocial: `Empresa ${String(n).padStart(4, '0')} SA` };
            const name = displayName({ tipo, ...names });
            return ports.clients.insert({
                publicId: randomUUID(),
                accountId,
                cuit: internals.cuitOf(n),
                tipo,
                ...names,
                representativeId: null,
                displayName: name,
                sortName: sortKey(name),
                email: n % 2 ? `cliente${n}@example.com` : null,
                telefono: null,
                sealedKey: null,
                createdAt: now.getTime()
            });
        }));
        ids.push(...batch.map((client) => client!.id));
    }

    for (const name of ['Monotributo', 'Sociedades', 'Prioridad']) {
        await createTag(ports, { accountId, name, color: '#336699' });
    }

    for (let n = 0; n < internals.clients; n += 10) {
        await assignTag(ports, { accountId, cuit: internals.cuitOf(n), name: n % 20 ? 'Monotributo' : 'Sociedades' });
    }

    // 100,000 issued invoices for the first CUIT, spread evenly over 12 months, saved in large
    // batches through the repository (its own transaction per call).
    const clientId = ids[0]!;
    const months = internals.months_(now);
    const perMonth = internals.invoices / internals.months;
    const all: InvoiceRecord[] = [];
    for (let n = 0; n < internals.invoices; n++) {
        const month = months[Math.min(months.length - 1, Math.floor(n / perMonth))]!;
        const lastDay = Number(month.to.slice(8));
        const day = 1 + Math.floor((n % perMonth) * lastDay / perMonth);
        all.push(internals.invoice(n + 1, `${month.from.slice(0, 8)}${String(day).padStart(2, '0')}`));
    }

    for (let i = 0; i < all.length; i += internals.chunk) {
        await ports.invoices.save(clientId, 'issued', all.slice(i, i + internals.chunk), now.getTime());
    }

    await ports.sct.replace(clientId, internals.sct(), now.getTime());

    const month = months[months.length - 1]!;
    const invoices = all.filter((invoice) => invoice.fecha >= month.from && invoice.fecha <= month.to).length;
    return { token, cuit: internals.cuitOf(0), month: { ...month, invoices } };
};
