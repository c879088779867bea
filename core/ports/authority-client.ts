import type { ArcaMeter } from '../domain/arca-meter.js';
import type { CcmaBalances, CcmaMovement } from '../domain/ccma.js';
import type { Cuit } from '../domain/cuit.js';
import type { InvoiceKind, InvoiceRecord } from '../domain/invoice.js';
import { messages } from '../domain/messages.js';
import { withoutSessionIds } from '../domain/session-ids.js';
import type { DateRange } from '../domain/period.js';
import type { SctData } from '../domain/sct.js';
import type { RegistryClassification } from './repositories.js';

// The tax authority as the synchronization sees it (docs/authority.md). Read-only: nothing here
// changes anything on the authority's side.

// A clave fiscal: a physical person's CUIT and password. One login per key reaches the person
// and every legal entity it represents.
export interface AuthorityKey {
    loginCuit: Cuit;
    password: string;
}

export type AuthorityFailureKind =
    | 'rejected_key'            // wrong password: never retried, it can block the key
    | 'blocked_key'
    | 'expired_key'             // must be changed at the authority
    | 'captcha'                 // repeated logins: wait, never solve
    | 'second_factor'           // the key asks for a token we do not have
    | 'not_adhered'             // the service is not enabled for the CUIT
    | 'represented_unavailable' // the key cannot act for that CUIT in that service
    | 'irregularities'          // the taxpayer "registra irregularidades" (Err: 002)
    | 'firewall_block'          // a "BL…" answer or an empty 503: the host blocked us
    | 'session_expired'         // the service or portal session ended
    | 'unavailable'             // 5xx, timeouts, resets, maintenance: transient
    | 'unexpected_page'         // a page or export the client does not understand
    | 'too_large';              // an answer or a ZIP entry past its cap: waits for the next day

export class AuthorityFailure extends Error {

    readonly kind: AuthorityFailureKind;
    // A short technical detail (never a credential); the message is the kind's Spanish
    // explanation with it, put together here once.
    readonly detail: string;
    // The password was posted in the attempt that failed: retrying soon would post it again.
    readonly touchedPassword: boolean;

    constructor(kind: AuthorityFailureKind, rawDetail = '', options: { touchedPassword?: boolean } = {}) {

        // A detail names pages and steps, never a session: see withoutSessionIds.
        const detail = withoutSessionIds(rawDetail);
        super(detail ? `${messages.authority[kind]} (${detail})` : messages.authority[kind]);
        this.name = 'AuthorityFailure';
        this.kind = kind;
        this.detail = detail;
        this.touchedPassword = options.touchedPassword ?? false;
    }
}

export interface AuthorityNotification {
    arcaId: string;
    tipo: string | null;
    asunto: string;
    organismo: string | null;
    fechaRecepcion: string;            // date-time
    fechaNotificacion: string | null;
    readAtAuthority: boolean;          // listed as read; the client never opens unread ones
}

export interface CcmaReading {
    balances: CcmaBalances;
    movements: CcmaMovement[] | AuthorityFailure;
}

// The registry as read: with ARCA's own meter where the monotributo dashboard was reached (in the
// same session, never an extra login). A meter that could not be read is its failure: the
// classification is kept and no meter stored. Absent: not read (not a monotributista).
export interface RegistryReading extends RegistryClassification {
    meter?: ArcaMeter | AuthorityFailure;
}

// What one taxpayer's data is read through, inside its key's session: each call selects the
// taxpayer in the service before reading.
export interface TaxpayerSession {
    registry(): Promise<RegistryReading>;
    invoices(kind: InvoiceKind, range: DateRange): Promise<InvoiceRecord[]>;
    sct(): Promise<SctData>;
    // Balances and movements come from different pages: movements that could not be read are
    // their failure, and never cost the balances.
    ccma(): Promise<CcmaReading>;
    notifications(): Promise<AuthorityNotification[]>;
}

// One logged-in session of a key. Its taxpayers are walked one after another, never at once.
export interface KeySession {
    taxpayer(cuit: Cuit): TaxpayerSession;
    close(): Promise<void>;
}

export interface LoginOptions {
    // How much work is left in this key's session, in taxpayers: the unfinished share of the
    // one being read plus those waiting for the key. When the authority's request slots are
    // scarce, the sessions with the most left are served first, so the longest one (a key
    // that also reads the legal entities it represents) is not left running alone at the end.
    workLeft?: () => number;
    // Called once, when the login's first request has reached the authority (its answer is
    // back, or it failed): login pacing counts the next start from there, so the authority
    // sees starts at least the gap apart whatever delays the request met on its way. A client
    // that never calls it has its logins paced one after another.
    started?: () => void;
}

export interface AuthorityClient {
    login(key: AuthorityKey, options?: LoginOptions): Promise<KeySession>;
}
