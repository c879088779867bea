import type { CcmaBalances, CcmaMovement } from '../domain/ccma.js';
import type { Cuit } from '../domain/cuit.js';
import type { InvoiceKind, InvoiceRecord } from '../domain/invoice.js';
import type { DateRange } from '../domain/period.js';
import type { SctData } from '../domain/sct.js';
import type { RegistryClassification } from './repositories.js';

// The tax authority as the synchronization sees it (AUTHORITY.md). Read-only: nothing here
// changes anything on the authority's side.

// Who logs in and on whose behalf: a physical person logs in with its own key; a legal
// entity through its representative's key, then selecting the represented CUIT.
export interface AuthorityCredentials {
    loginCuit: Cuit;
    password: string;
    representedCuit: Cuit;
}

export type AuthorityFailureKind =
    | 'rejected_key'            // wrong password: never retried, it can block the key
    | 'blocked_key'
    | 'expired_key'             // must be changed at the authority
    | 'captcha'
    | 'second_factor'
    | 'not_adhered'             // the service is not enabled for the CUIT
    | 'represented_unavailable' // the representative cannot act for that CUIT
    | 'unavailable'             // 5xx, timeouts, resets, maintenance: transient
    | 'unexpected_page';        // a page or export the client does not understand

export class AuthorityFailure extends Error {

    readonly kind: AuthorityFailureKind;

    constructor(kind: AuthorityFailureKind, message: string) {

        super(message);
        this.name = 'AuthorityFailure';
        this.kind = kind;
    }

    // Worth trying again later without anyone's intervention.
    get transient(): boolean {

        return this.kind === 'unavailable' || this.kind === 'unexpected_page';
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

// A logged-in session for one taxpayer. One session per taxpayer at a time.
export interface AuthoritySession {
    registry(): Promise<RegistryClassification>;
    invoices(kind: InvoiceKind, range: DateRange): Promise<InvoiceRecord[]>;
    sct(): Promise<SctData>;
    ccma(): Promise<{ balances: CcmaBalances; movements: CcmaMovement[] }>;
    notifications(): Promise<AuthorityNotification[]>;
    close(): Promise<void>;
}

export interface AuthorityClient {
    login(credentials: AuthorityCredentials): Promise<AuthoritySession>;
}
