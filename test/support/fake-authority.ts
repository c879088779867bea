import type { InvoiceKind, InvoiceRecord } from '../../core/domain/invoice.js';
import type { DateRange } from '../../core/domain/period.js';
import type { SyncSystem } from '../../core/domain/sync-system.js';
import type { AuthorityClient, AuthorityFailureKind, AuthorityKey, AuthorityNotification, TaxpayerSession } from '../../core/ports/authority-client.js';
import { AuthorityFailure } from '../../core/ports/authority-client.js';
import type { RegistryClassification } from '../../core/ports/repositories.js';
import type { SctData } from '../../core/domain/sct.js';
import type { CcmaBalances, CcmaMovement } from '../../core/domain/ccma.js';
import { invoice, movement, sctData } from './data.js';

// A small in-test authority for the sync's unit tests: per-CUIT data, passwords, injected
// failures per system, and a log of every call. The end-to-end suites use the simulated
// authority through the real arca adapter instead.

export interface FakeTaxpayer {
    password: string;
    registry: RegistryClassification;
    invoices: Record<InvoiceKind, InvoiceRecord[]>;
    sct: SctData;
    ccma: { balances: CcmaBalances; movements: CcmaMovement[] };
    notifications: AuthorityNotification[];
}

export interface FakeAuthority extends AuthorityClient {
    taxpayers: Map<string, FakeTaxpayer>;
    // Failures the next calls of a system throw (consumed one per call), or at login.
    failures: Map<SyncSystem | 'login', AuthorityFailureKind[]>;
    calls: { login: AuthorityKey[]; invoices: { cuit: string; kind: InvoiceKind; range: DateRange }[]; systems: { cuit: string; system: SyncSystem }[] };
    // Called inside each fetch, before it answers (lets a test act mid-sync).
    beforeFetch?: (cuit: string, system: SyncSystem) => Promise<void> | void;
}

export const fakeTaxpayer = (overrides: Partial<FakeTaxpayer> = {}): FakeTaxpayer => ({
    password: 'clave-correcta',
    registry: { monotributista: true, autonomo: false, categoria: 'F' },
    invoices: {
        issued: [
            invoice({ fecha: '2026-03-02', numeroDesde: '00000010', numeroHasta: '00000010' }),
            invoice({
                fecha: '2026-01-10',
                numeroDesde: '00000009',
                numeroHasta: '00000009',
                monedaOriginal: 'DOL',
                tipoCambio: 1050.5,
                importeOriginal: 100,
                importe: 0
            })
        ],
        received: [invoice({ fecha: '2026-02-20', counterpart: { tipoDocumento: '80', numeroDocumento: '30500010912', nombre: 'Proveedor SA' } })]
    },
    sct: sctData(),
    ccma: {
        balances: { saldoDeudor: 25000, saldoAcreedor: null },
        movements: [movement({ orden: 1, periodo: '01/2026' }), movement({ orden: 1, periodo: '02/2026', debe: null, haber: 25000, saldo: 0 })]
    },
    notifications: [
        {
            arcaId: '101',
            tipo: 'Comunicación',
            asunto: 'Leída antes',
            organismo: 'ARCA',
            fechaRecepcion: '2026-01-05T13:00:00.000Z',
            fechaNotificacion: '2026-01-05T13:00:00.000Z',
            readAtAuthority: true
        },
        {
            arcaId: '102',
            tipo: 'Intimación',
            asunto: 'Sin leer',
            organismo: 'ARCA',
            fechaRecepcion: '2026-02-05T13:00:00.000Z',
            fechaNotificacion: null,
            readAtAuthority: false
        }
    ],
    ...overrides
});

export const fakeAuthority = (): FakeAuthority => {

    const authority: FakeAuthority = {
        taxpayers: new Map(),
        failures: new Map(),
        calls: { login: [], invoices: [], systems: [] },

        async login(key) {

            authority.calls.login.push(key);
            throwInjected('login');
            const login = authority.taxpayers.get(key.loginCuit);
            if (!login || login.password !== key.password) {
                throw new AuthorityFailure('rejected_key', `clave incorrecta: ${key.password}`, { touchedPassword: true });
            }

            return {
                taxpayer(cuit): TaxpayerSession {

                    const data = (): FakeTaxpayer => {

                        const found = authority.taxpayers.get(cuit);
                        if (!found) {
                            throw new AuthorityFailure('represented_unavailable', 'sin representación');
                        }

                        return found;
                    };

                    const fetch = async <T>(system: SyncSystem, value: () => T): Promise<T> => {

                        authority.calls.systems.push({ cuit, system });
                        await authority.beforeFetch?.(cuit, system);
                        throwInjected(system);
                        return structuredClone(value());
                    };

                    return {
                        registry: () => fetch('registry', () => data().registry),
                        invoices: (kind, range) => {

                            authority.calls.invoices.push({ cuit, kind, range });
                            return fetch(
                                kind === 'issued' ? 'issued_invoices' : 'received_invoices',
                                () => data().invoices[kind].filter((item) => item.fecha >= range.fromDate && item.fecha <= range.toDate)
                            );
                        },
                        sct: () => fetch('sct', () => data().sct),
                        ccma: () => fetch('ccma', () => data().ccma),
                        notifications: () => fetch('dfe', () => data().notifications)
                    };
                },

                close: async () => undefined
            };
        }
    };

    const throwInjected = (system: SyncSystem | 'login') => {

        const kind = authority.failures.get(system)?.shift();
        if (kind) {
            throw new AuthorityFailure(kind, `falla inyectada en ${system}`);
        }
    };

    return authority;
};
