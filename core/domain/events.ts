import type { Notification } from './notification.js';
import type { SctDebt } from './sct.js';

// What the account's webhooks hear of (README: States and webhooks). Wire names in Spanish.

// The most items of one list an event carries (new notifications, debts that appeared or were
// settled), so that an event stays small whatever the authority lists: the list's total goes
// with it, and the API path (`listado`) where the rest is read. An event is written in the
// transaction of its data: one too big for its column would roll the data back with it.
export const eventListMax = 50;

export const eventTypes = ['sincronizacion.completada', 'salud.cambio', 'dfe.nuevas', 'sct.deuda_cambio', 'monotributo.tope', 'prueba'] as const;
export type EventType = typeof eventTypes[number];

const internals = {
    // The API path of a CUIT's resource, where an event's receiver reads what the event left out.
    listPath: (cuit: string, resource: 'dfe' | 'sct'): string => `/v1/cuits/${cuit}/${resource}`,
    key: (debt: SctDebt): string => [debt.establecimiento, debt.impuesto, debt.concepto, debt.subconcepto, debt.periodo, debt.antCuota].join('\u0000'),
    total: (debts: readonly SctDebt[]): number => Math.round(
        debts.reduce((sum, debt) => sum + debt.saldo + debt.intResarcitorios + debt.intPunitorios, 0) * 100
    ) / 100,
    item: (debt: SctDebt) => ({
        impuesto: debt.impuesto,
        concepto: debt.concepto,
        periodo: debt.periodo,
        antCuota: debt.antCuota,
        total: internals.total([debt])
    })
};

export interface SctDebtChange {
    totalAnterior: number;
    total: number;
    cantidadAparecidas: number;
    cantidadCanceladas: number;
    aparecidas: ReturnType<typeof internals.item>[];       // the first eventListMax
    canceladas: ReturnType<typeof internals.item>[];
    listado: string;
}

// The debt before and after a sync (as stored: texts cut at their columns): what is owed in all
// (saldo plus interests) and the items that appeared or were settled, at most eventListMax of
// each with their counts; null when neither the total nor the items changed.
export const sctDebtChange = (cuit: string, before: readonly SctDebt[], after: readonly SctDebt[]): SctDebtChange | null => {

    const old = new Set(before.map(internals.key));
    const now = new Set(after.map(internals.key));
    const appeared = after.filter((debt) => !old.has(internals.key(debt)));
    const settled = before.filter((debt) => !now.has(internals.key(debt)));
    const totalAnterior = internals.total(before);
    const total = internals.total(after);
    if (totalAnterior === total && !appeared.length && !settled.length) {
        return null;
    }

    return {
        totalAnterior,
        total,
        cantidadAparecidas: appeared.length,
        cantidadCanceladas: settled.length,
        aparecidas: appeared.slice(0, eventListMax).map(internals.item),
        canceladas: settled.slice(0, eventListMax).map(internals.item),
        listado: internals.listPath(cuit, 'sct')
    };
};

// A new notification's metadata as announced: never its content (the synchronizer never opens one).
const notificationMetadata = (notification: Notification) => ({
    arcaId: notification.arcaId,
    tipo: notification.tipo,
    asunto: notification.asunto,
    organismo: notification.organismo,
    fechaRecepcion: notification.fechaRecepcion,
    fechaNotificacion: notification.fechaNotificacion
});

export interface NewNotifications {
    cantidad: number;
    notificaciones: ReturnType<typeof notificationMetadata>[];     // the newest eventListMax
    listado: string;
}

// `dfe.nuevas`: how many notifications are new and the newest eventListMax of them, in the
// API's order (by fechaRecepcion, the last stored first among equal dates); the CUIT's list
// (`listado`, newest first) has them all. `fresh` as stored, texts cut at their columns.
export const newNotifications = (cuit: string, fresh: readonly Notification[]): NewNotifications => ({
    cantidad: fresh.length,
    notificaciones: fresh.map((notification, index) => ({ notification, index, at: Date.parse(notification.fechaRecepcion) }))
        .sort((a, b) => b.at - a.at || b.index - a.index)
        .slice(0, eventListMax)
        .map((entry) => notificationMetadata(entry.notification)),
    listado: internals.listPath(cuit, 'dfe')
});

export const isEventType = (value: string): value is EventType => (eventTypes as readonly string[]).includes(value);

// What a system's write changed, as `sincronizacion.completada` tells it per system.
export interface RecordChanges {
    nuevos: number;
    cambiados: number;
    eliminados: number;
}

// The records a write replaced (before) and wrote (after), each named by `key` (what the
// authority identifies it by) and compared whole by `value`: a key's records kept exactly
// are unchanged, the rest pair up as changed, and what is left is new or removed. Several
// records under one key (the authority may list two alike) are counted as a multiset.
export const recordChanges = <T>(before: readonly T[], after: readonly T[], key: (item: T) => string, value: (item: T) => string): RecordChanges => {

    const group = (items: readonly T[]): Map<string, string[]> => {

        const groups = new Map<string, string[]>();
        for (const item of items) {
            const id = key(item);
            groups.set(id, [...groups.get(id) ?? [], value(item)]);
        }

        return groups;
    };

    const old = group(before);
    const now = group(after);
    const changes: RecordChanges = { nuevos: 0, cambiados: 0, eliminados: 0 };
    for (const id of new Set([...old.keys(), ...now.keys()])) {
        const left = [...old.get(id) ?? []];
        let added = 0;
        for (const entry of now.get(id) ?? []) {
            const same = left.indexOf(entry);
            if (same === -1) {
                added++;
            }
            else {
                left.splice(same, 1);
            }
        }

        const changed = Math.min(added, left.length);
        changes.cambiados += changed;
        changes.nuevos += added - changed;
        changes.eliminados += left.length - changed;
    }

    return changes;
};
