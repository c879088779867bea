import { randomUUID } from 'node:crypto';
import type { App } from '../app/compose.js';
import { displayName, sortKey } from '../core/domain/client.js';
import type { CcmaMovement } from '../core/domain/ccma.js';
import type { Cuit } from '../core/domain/cuit.js';
import type { InvoiceRecord } from '../core/domain/invoice.js';
import type { Notification } from '../core/domain/notification.js';
import type { SctData } from '../core/domain/sct.js';
import type { Ports } from '../core/ports/index.js';
import { assignClientToUser } from '../core/use-cases/staff/assign-client-to-user.js';
import { assignTag } from '../core/use-cases/staff/assign-tag.js';
import { createAccount } from '../core/use-cases/staff/create-account.js';
import { createTag } from '../core/use-cases/staff/create-tag.js';
import { createToken } from '../core/use-cases/staff/create-token.js';
import { createUser } from '../core/use-cases/staff/create-user.js';

// The bench's data set, written through the same use cases and repositories as staff and the
// sync: one account (owner token) with 1,000 CUITs, a few tagged; one CUIT with 100,000
// issued invoices over the last 12 months and its SCT. Beside it, the integrators' data set
// (seedIntegrators): several accounts of several users, each user with CUITs of its own
// holding a month of issued and received invoices, SCT, CCMA and DFE.

export interface BenchData {
    token: string;
    cuit: string;              // the CUIT with the invoices and SCT
    month: { from: string; to: string; invoices: number };
}

// What one CUIT of the integrators' data set holds in the bench month (pages of 50).
export interface IntegratorCuit {
    cuit: string;
    issued: number;
    received: number;
    periods: number;           // CCMA periods
    notifications: number;
}

export interface IntegratorData {
    users: { token: string; cuits: IntegratorCuit[] }[];
    month: { from: string; to: string };
    // The month before, with half as many invoices: what the servers are warmed on.
    previousMonth: { from: string; to: string };
}

const internals = {
    clients: 1_000,
    invoices: 100_000,
    months: 12,
    chunk: 5_000,

    cuitOf: (i: number): Cuit => `20${String(10_000_000 + i).padStart(8, '0')}9` as Cuit,

    // The integrators: accounts of an owner and members, each user paging CUITs of its own
    // (members have theirs assigned); each CUIT with a month of invoices (and some of the
    // month before), CCMA periods and notifications.
    integrators: { accounts: 4, usersPerAccount: 6, cuitsPerUser: 6, issued: 1_000, received: 500, periods: 36, notifications: 150 },

    integratorCuitOf: (i: number): Cuit => `27${String(40_000_000 + i).padStart(8, '0')}3` as Cuit,

    async insertClient(ports: Ports, accountId: number, cuit: Cuit, n: number, createdAt: number) {

        const tipo = n % 4 === 0 ? 'persona-juridica' as const : 'persona-fisica' as const;
        const names = tipo === 'persona-fisica'
            ? { nombre: `Nombre${n}`, apellido: `Apellido${String(n).padStart(4, '0')}`, razonSocial: null }
            : { nombre: null, apellido: null, razonSocial: `Empresa ${String(n).padStart(4, '0')} SA` };
        const name = displayName({ tipo, ...names });
        const client = await ports.clients.insert({
            publicId: randomUUID(),
            accountId,
            cuit,
            tipo,
            ...names,
            representativeId: null,
            displayName: name,
            sortName: sortKey(name),
            email: n % 2 ? `cliente${n}@example.com` : null,
            telefono: null,
            sealedKey: null,
            keyDigest: null,
            createdAt
        });
        return client!;
    },

    // `count` invoices spread over the days of `month`, numbered from `first`.
    invoicesOf(month: { from: string; to: string }, count: number, first: number, counterpart = (n: number) => `30${String(70_000_000 + (n % 5_000)).padStart(8, '0')}1`): InvoiceRecord[] {

        const lastDay = Number(month.to.slice(8));
        return Array.from({ length: count }, (_, i) => {

            const n = first + i;
            const day = 1 + Math.floor(i * lastDay / count);
            const record = internals.invoice(n, `${month.from.slice(0, 8)}${String(day).padStart(2, '0')}`);
            return { ...record, counterpart: { ...record.counterpart, numeroDocumento: counterpart(n) } };
        });
    },

    movements(periods: number, now: Date): CcmaMovement[] {

        return Array.from({ length: periods }, (_, p) => {

            const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1 - p, 1));
            const periodo = `${String(month.getUTCMonth() + 1).padStart(2, '0')}/${month.getUTCFullYear()}`;
            return Array.from({ length: 3 }, (_, j) => ({
                orden: j + 1,
                periodo,
                impuesto: '30 - IVA',
                concepto: '19 - Obligación mensual',
                subconcepto: '19 - Obligación mensual',
                descripcion: j === 2 ? 'Pago' : 'Determinación de deuda',
                fechaMovimiento: new Date(month.getTime() + (18 + j) * 86_400_000).toISOString(),
                debe: j === 2 ? null : 10_000 + p,
                haber: j === 2 ? 10_000 + p : null,
                saldo: j === 2 ? 0 : -(10_000 + p)
            }));
        }).flat();
    },

    notifications(count: number, now: Date): Notification[] {

        return Array.from({ length: count }, (_, n) => ({
            arcaId: `${900_000 + n}`,
            tipo: 'Comunicación',
            asunto: `Comunicación informativa ${n}`,
            organismo: 'ARCA',
            fechaRecepcion: new Date(now.getTime() - (n + 1) * 3 * 3_600_000).toISOString(),
            fechaNotificacion: null,
            leidaAt: null
        }));
    },

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
        const batch = await Promise.all(
            Array.from(
                { length: Math.min(20, internals.clients - i) },
                (_, j) => internals.insertClient(ports, accountId, internals.cuitOf(i + j), i + j, now.getTime())
            )
        );
        ids.push(...batch.map((client) => client.id));
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

export const seedIntegrators = async (app: App): Promise<IntegratorData> => {

    const { ports } = app;
    const now = ports.clock.now();
    const shape = internals.integrators;
    const months = internals.months_(now);
    const month = months[months.length - 1]!;
    const before = months[months.length - 2]!;
    const users: IntegratorData['users'] = [];
    let n = 0;
    for (let a = 0; a < shape.accounts; a++) {
        const { id: accountId } = await createAccount(ports, { name: `Estudio Integrador ${a}` });
        for (let u = 0; u < shape.usersPerAccount; u++) {
            const role = u === 0 ? 'owner' as const : 'member' as const;
            const { id: userId } = await createUser(ports, { accountId, email: `integrador-${a}-${u}-${randomUUID().slice(0, 8)}@example.com`, role });
            const { token } = await createToken(ports, { userId });
            const cuits: IntegratorCuit[] = [];
            for (let c = 0; c < shape.cuitsPerUser; c++, n++) {
                const cuit = internals.integratorCuitOf(n);
                const client = await internals.insertClient(ports, accountId, cuit, n, now.getTime());
                if (role === 'member') {
                    await assignClientToUser(ports, { userId, cuit });
                }

                const synced = now.getTime();
                await ports.invoices.save(
                    client.id,
                    'issued',
                    [...internals.invoicesOf(before, shape.issued / 2, 1), ...internals.invoicesOf(month, shape.issued, 1 + shape.issued / 2)],
                    synced
                );
                // Received invoices are told apart by their issuer, each with numbers of its own.
                await ports.invoices.save(client.id, 'received', [...internals.invoicesOf(before, shape.received / 2, 1, (i) => `30${String(80_000_000 + (i % 50)).padStart(8, '0')}1`), ...internals.invoicesOf(month, shape.received, 1 + shape.received / 2, (i) => `30${String(80_000_000 + (i % 50)).padStart(8, '0')}1`)], synced);
                await ports.sct.replace(client.id, internals.sct(), synced);
                await ports.ccma.replace(client.id, { saldoDeudor: 1_500.5, saldoAcreedor: null }, internals.movements(shape.periods, now), synced);
                await ports.notifications.save(client.id, internals.notifications(shape.notifications, now), synced);
                cuits.push({ cuit, issued: shape.issued, received: shape.received, periods: shape.periods, notifications: shape.notifications });
            }

            users.push({ token, cuits });
        }
    }

    return { users, month, previousMonth: before };
};
