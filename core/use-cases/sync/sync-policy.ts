import type { ClientType } from '../../domain/client.js';
import type { DateRange } from '../../domain/period.js';
import type { SyncSystem } from '../../domain/sync-system.js';
import { formatDate } from '../../domain/time.js';
import type { Timestamp } from '../../domain/time.js';
import { isKeyFailureKind } from '../../domain/login-ledger.js';
import type { AuthorityFailureKind } from '../../ports/authority-client.js';

// The synchronization's policy, the rules that do not touch a port (docs/architecture.md,
// A synchronization).

export interface InvoiceWindowPolicy {
    backfillMonths: number;
    rollingMonths: number;
}

// A first sync (or a forced one) brings 12 months. Later ones re-read the current month and
// the two before it: an invoice can reach Mis Comprobantes days or weeks after its date
// (issuers authorising late or reporting contingency invoices, received invoices loaded by
// the issuer after the fact, credit notes on earlier invoices), and the month an accountant
// closes is the previous one, whose VAT return falls due in the middle of the next. Three
// calendar months cover that with one query of at most ~92 days per kind. If the last
// success is older than the window (a CUIT that failed for weeks), the window reaches back
// to a month before it, never beyond the backfill.
const defaultInvoicePolicy: InvoiceWindowPolicy = { backfillMonths: 12, rollingMonths: 3 };

const internals = {
    dayMs: 24 * 60 * 60 * 1000,

    utcDay: (ms: Timestamp): Date => {

        const date = new Date(ms);
        return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
    },

    addMonths: (date: Date, months: number): Date => {

        // Clamp the day: 31 March minus one month is the last day of February.
        const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
        const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
        target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
        return target;
    }
};

// The registry runs for every physical person (docs/api.md, Resources); a legal entity has the rest.
export const systemsFor = (tipo: ClientType): SyncSystem[] => {

    const systems: SyncSystem[] = ['issued_invoices', 'received_invoices', 'sct', 'ccma', 'dfe'];
    return tipo === 'persona-fisica' ? ['registry', ...systems] : systems;
};

// The dates to ask for: one window (the authority client splits it in the queries its
// service allows).
export const invoiceWindow = (input: { now: Timestamp; lastSyncedAt: Timestamp | null; full: boolean; policy?: InvoiceWindowPolicy }): DateRange => {

    const policy = input.policy ?? defaultInvoicePolicy;
    const today = internals.utcDay(input.now);
    const backfillStart = new Date(internals.addMonths(today, -policy.backfillMonths).getTime() + internals.dayMs);
    let from: Date;
    if (input.full || input.lastSyncedAt === null) {
        from = backfillStart;
    }
    else {
        from = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (policy.rollingMonths - 1), 1));
        const sinceLast = internals.addMonths(internals.utcDay(input.lastSyncedAt), -1);
        if (sinceLast < from) {
            from = sinceLast < backfillStart ? backfillStart : sinceLast;
        }
    }

    return { fromDate: formatDate(from), toDate: formatDate(today) };
};

// What a failure of the authority means for the job (docs/authority.md: Behaviour and risks):
// nothing that touched a password comes back soon (an unknown page after it, a timeout of the
// jwt exchange: hours, not minutes); a firewall block waits long; what needs a person (CAPTCHA,
// second factor, not adhered, irregularities, a representation missing) waits for the next
// daily run; transient failures before any password use the normal backoff.
export const failurePolicy = {
    blockDelayMs: 60 * 60_000,
    passwordDelayMs: 4 * 60 * 60_000,

    of(kind: AuthorityFailureKind, touchedPassword: boolean): { retry: boolean; minDelayMs: number } {

        if (kind === 'firewall_block') {
            return { retry: true, minDelayMs: failurePolicy.blockDelayMs };
        }

        if (kind === 'unavailable' || kind === 'unexpected_page' || kind === 'session_expired') {
            return { retry: true, minDelayMs: touchedPassword ? failurePolicy.passwordDelayMs : 0 };
        }

        return { retry: false, minDelayMs: 0 };
    },

    // A failed login that must not be tried again with the same key that day, by any taxpayer
    // it reaches: the password was posted, the key was refused, or a person is needed.
    endsLoginsForDay(kind: AuthorityFailureKind, touchedPassword: boolean): boolean {

        return touchedPassword || isKeyFailureKind(kind) || kind === 'captcha' || kind === 'second_factor';
    }
};

// Transient failures come back with exponential backoff and jitter: 1, 2, 4, 8 minutes…
export const retryPolicy = {
    maxAttempts: 5,
    delayMs(attempts: number, random: () => number = Math.random): number {

        const base = Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
        return Math.round(base * (0.5 + random() / 2));
    }
};

export const dayMs = internals.dayMs;
