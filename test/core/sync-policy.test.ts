import { expect } from 'chai';
import { normalizeInvoice } from '../../core/domain/invoice.js';
import { invoiceWindow, retryPolicy, systemsFor } from '../../core/use-cases/sync/sync-policy.js';
import { isKeyFailureKind as isKeyFailure } from '../../core/domain/login-ledger.js';
import { keyIdentity } from '../../core/domain/key-identity.js';
import { enteringNotification } from '../../core/domain/notification.js';
import { invoice } from '../support/data.js';

// The synchronization's pure rules (core/use-cases/sync/sync-policy.ts, and the domain's
// sealed-key fingerprint and entering notifications).

describe('sync rules', () => {

    const at = (iso: string) => Date.parse(iso);

    it('runs the registry for physical persons only', () => {

        expect(systemsFor('persona-fisica')).to.deep.equal(['registry', 'issued_invoices', 'received_invoices', 'sct', 'ccma', 'dfe']);
        expect(systemsFor('persona-juridica')).to.deep.equal(['issued_invoices', 'received_invoices', 'sct', 'ccma', 'dfe']);
    });

    it('backfills twelve months, first or forced, in one window the authority client splits', () => {

        expect(invoiceWindow({
            now: at('2026-03-15T12:00:00Z'),
            lastSyncedAt: null,
            full: false
        })).to.deep.equal({ fromDate: '2025-03-16', toDate: '2026-03-15' });
        expect(invoiceWindow({
            now: at('2026-03-15T12:00:00Z'),
            lastSyncedAt: at('2026-03-14T12:00:00Z'),
            full: true
        })).to.deep.equal({ fromDate: '2025-03-16', toDate: '2026-03-15' });
        // Twelve months across a 29 February are 366 days: still one window.
        expect(invoiceWindow({
            now: at('2024-02-29T00:00:00Z'),
            lastSyncedAt: null,
            full: false
        })).to.deep.equal({ fromDate: '2023-03-01', toDate: '2024-02-29' });
        expect(invoiceWindow({
            now: at('2026-03-15T00:00:00Z'),
            lastSyncedAt: null,
            full: false,
            policy: { backfillMonths: 24, rollingMonths: 3 }
        })).to.deep.equal({ fromDate: '2024-03-16', toDate: '2026-03-15' });
    });

    it('then reads the current month and the two before it, reaching back when the last success is older', () => {

        expect(invoiceWindow({
            now: at('2026-03-15T12:00:00Z'),
            lastSyncedAt: at('2026-03-14T12:00:00Z'),
            full: false
        })).to.deep.equal({ fromDate: '2026-01-01', toDate: '2026-03-15' });
        expect(invoiceWindow({
            now: at('2026-03-31T12:00:00Z'),
            lastSyncedAt: at('2026-03-30T12:00:00Z'),
            full: false
        })).to.deep.equal({ fromDate: '2026-01-01', toDate: '2026-03-31' });
        // Last success on 10 December: from 10 November.
        expect(invoiceWindow({
            now: at('2026-03-15T12:00:00Z'),
            lastSyncedAt: at('2025-12-10T08:00:00Z'),
            full: false
        })).to.deep.equal({ fromDate: '2025-11-10', toDate: '2026-03-15' });
        // Never beyond the backfill.
        expect(invoiceWindow({
            now: at('2026-03-15T12:00:00Z'),
            lastSyncedAt: at('2024-01-01T00:00:00Z'),
            full: false
        })).to.deep.equal({ fromDate: '2025-03-16', toDate: '2026-03-15' });
    });

    it('converts amounts to pesos; tipoCambio 1 for pesos whatever the authority wrote', () => {

        expect(normalizeInvoice(invoice({
            monedaOriginal: 'DOL',
            tipoCambio: 1234.567,
            importeOriginal: 10.01,
            importe: 0
        }))).to.include({ tipoCambio: 1234.567, importe: 12358.02 });
        expect(normalizeInvoice(invoice({
            monedaOriginal: '$',
            tipoCambio: 0,
            importeOriginal: 99.99,
            importe: 0
        }))).to.include({ tipoCambio: 1, importe: 99.99 });
        expect(normalizeInvoice(invoice({
            monedaOriginal: 'PES',
            tipoCambio: 1.5,
            importeOriginal: 10,
            importe: 0
        }))).to.include({ tipoCambio: 1, importe: 10 });
    });

    it('enters read-at-the-authority notifications as read only on the first sync', () => {

        const listed = {
            arcaId: '1',
            tipo: null,
            asunto: 'A',
            organismo: null,
            fechaRecepcion: '2026-01-05T13:00:00.000Z',
            fechaNotificacion: null,
            readAtAuthority: true
        };
        expect(enteringNotification(listed, true).leidaAt).to.equal('2026-01-05T13:00:00.000Z');
        expect(enteringNotification(listed, false).leidaAt).to.equal(null);
        expect(enteringNotification({ ...listed, readAtAuthority: false }, true).leidaAt).to.equal(null);
    });

    it('tells refused keys apart, knows a key by a keyed hash of its CUIT and plaintext, and backs off with jitter', () => {

        expect(['rejected_key', 'blocked_key', 'expired_key'].every((kind) => isKeyFailure(kind as never))).to.equal(true);
        expect(['unavailable', 'captcha', 'second_factor', 'not_adhered'].some((kind) => isKeyFailure(kind as never))).to.equal(false);
        const secret = Buffer.alloc(32, 1);
        expect(keyIdentity(secret, '20123456786', 'abc')).to.match(/^[0-9a-f]{64}$/).and.equal(keyIdentity(secret, '20123456786', 'abc'));
        expect(keyIdentity(secret, '20123456786', 'abc')).to.not.equal(keyIdentity(secret, '20123456786', 'abd'));
        expect(keyIdentity(secret, '20123456786', 'abc')).to.not.equal(keyIdentity(secret, '27123456780', 'abc'));
        expect(keyIdentity(secret, '20123456786', 'abc')).to.not.equal(keyIdentity(Buffer.alloc(32, 2), '20123456786', 'abc'));
        expect(retryPolicy.delayMs(1, () => 0)).to.equal(30_000);
        expect(retryPolicy.delayMs(1, () => 1)).to.equal(60_000);
        expect(retryPolicy.delayMs(3, () => 1)).to.equal(240_000);
        expect(retryPolicy.delayMs(20, () => 1)).to.equal(3_600_000);
    });
});
