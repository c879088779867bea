import { messages } from './messages.js';
import { agreeing, preceded } from './spanish.js';
import type { SyncSystem } from './sync-system.js';
import type { Timestamp } from './time.js';
import { toIso } from './time.js';

// The health of a CUIT as integrators (REST), assistants (MCP) and staff (CLI) see it, derived
// from what the synchronization records and nothing else: each system's last success, last
// attempt and last error with its state (sync_states); for a key, the refusal that keeps it
// from being tried again until it changes (sync_key_failures, which the login reads) and the fleet's login
// ledger of the ARCA day (sync_key_logins: a login that went through, or the failure that
// ended the key's logins for the day), the same records the sync acts on.
// A failure's state is stored beside its error when the sync records it (sync_states.last_state,
// from the failure's kind: stateOfFailure), and only looked up here: the error's words are for
// people, and rewording one changes nothing of how a stored row reads. (Rows from before the
// state was stored got theirs from their words once, in migrations 018 and 020.)

export const healthStates = [
    'ok',
    'pendiente',
    'sin_clave',
    'clave_rechazada',
    'clave_bloqueada',
    'clave_vencida',
    'captcha',
    'segundo_factor',
    'no_adherido',
    'sin_representacion',
    'irregularidades',
    'arca_bloqueo',
    'arca_no_disponible',
    'formato_desconocido',
    'espera_arca',
    'cuit_invalido',
    'error'
] as const;

export type HealthState = typeof healthStates[number];

// A key's own state today, shared by every CUIT it reaches.
export const keyStates = ['funciona', 'pendiente', 'sin_clave', 'clave_rechazada', 'clave_bloqueada', 'clave_vencida', 'captcha', 'segundo_factor', 'espera_arca'] as const;
export type KeyState = typeof keyStates[number];

// The wire names of the systems (Spanish, like every wire name).
export const systemNames: Record<SyncSystem, string> = {
    registry: 'registro',
    issued_invoices: 'comprobantes_emitidos',
    received_invoices: 'comprobantes_recibidos',
    sct: 'sct',
    ccma: 'ccma',
    dfe: 'dfe'
};

export interface HealthText {
    // What happened, in a few words.
    mensaje: string;
    // What the accountant must do.
    accion: string;
}

const internals = {
    texts: {
        ok: { mensaje: 'Sincronizado sin errores.', accion: 'Nada que hacer: los datos están al día.' },
        pendiente: { mensaje: 'Todavía no se sincronizó.', accion: 'Nada que hacer por ahora: la primera sincronización está en curso o en espera.' },
        sin_clave: {
            mensaje: messages.sync.noKey,
            accion: 'Cargá la clave fiscal del cliente (o asignale un representante con clave fiscal) para poder sincronizarlo.'
        },
        clave_rechazada: {
            mensaje: 'ARCA rechazó la clave fiscal.',
            accion: 'Pedile al cliente su clave fiscal correcta y cargala de nuevo; mientras tanto no se reintenta, para no bloquearla.'
        },
        clave_bloqueada: {
            mensaje: 'La clave fiscal está bloqueada en ARCA.',
            accion: 'Pedile al cliente que desbloquee su clave fiscal en ARCA y cargala de nuevo.'
        },
        clave_vencida: { mensaje: 'ARCA exige cambiar la clave fiscal.', accion: 'Pedile al cliente que cambie su clave fiscal en ARCA y cargala de nuevo.' },
        captcha: {
            mensaje: 'ARCA pidió resolver un CAPTCHA para ingresar.',
            accion: 'Nada que hacer: ARCA lo pide tras varios ingresos seguidos; se reintenta en la próxima sincronización diaria.'
        },
        segundo_factor: {
            mensaje: 'ARCA pidió un segundo factor de autenticación.',
            accion: 'Pedile al cliente que quite el segundo factor (token) de su clave fiscal, o que delegue los servicios en tu clave desde el Administrador de Relaciones de ARCA.'
        },
        no_adherido: {
            mensaje: 'El servicio no está adherido en ARCA para el CUIT.',
            accion: 'Pedile al cliente que adhiera el servicio en ARCA (Administrador de Relaciones de Clave Fiscal); arcasync nunca lo adhiere por él.'
        },
        sin_representacion: {
            mensaje: 'El representante no puede operar en nombre del CUIT.',
            accion: 'Pedile al cliente que delegue el servicio en su representante desde el Administrador de Relaciones de Clave Fiscal de ARCA.'
        },
        irregularidades: {
            mensaje: 'ARCA informa que el CUIT registra irregularidades.',
            accion: 'El cliente debe regularizar su situación en su dependencia de ARCA.'
        },
        arca_bloqueo: { mensaje: 'ARCA bloqueó temporalmente los pedidos.', accion: 'Nada que hacer: se reintenta solo más tarde.' },
        arca_no_disponible: { mensaje: 'ARCA no estuvo disponible.', accion: 'Nada que hacer: se reintenta solo.' },
        formato_desconocido: {
            mensaje: 'ARCA devolvió una página con un formato que el servicio no reconoce.',
            accion: 'Nada que hacer: el equipo de arcasync recibió el detalle y se reintenta más tarde.'
        },
        espera_arca: {
            mensaje: 'La clave fiscal espera su turno para ingresar a ARCA.',
            accion: 'Nada que hacer: para no bloquear la clave, ARCA recibe pocos ingresos por día; se sincroniza solo en el próximo turno.'
        },
        cuit_invalido: {
            mensaje: 'El CUIT no es válido: su dígito verificador no corresponde.',
            accion: 'Revisá el CUIT del cliente (o de su representante): eliminalo y cargalo de nuevo con el CUIT correcto. No se envía a ARCA.'
        },
        error: { mensaje: 'Un error impidió sincronizar.', accion: 'Nada que hacer: se reintenta solo; si sigue así, escribinos.' }
    } satisfies Record<HealthState, HealthText>,

    keyTexts: {
        funciona: { mensaje: 'La clave fiscal funciona.', accion: 'Nada que hacer.' },
        pendiente: { mensaje: 'La clave fiscal todavía no se usó.', accion: 'Nada que hacer por ahora: se usa en la próxima sincronización.' }
    } satisfies Partial<Record<KeyState, HealthText>>,

    // A key's failures: they stop every CUIT the key reaches.
    keyFailures: new Set<HealthState>(['sin_clave', 'clave_rechazada', 'clave_bloqueada', 'clave_vencida', 'captcha', 'segundo_factor']),

    // What needs a person; the rest passes by itself.
    attention: new Set<HealthState>(
        ['sin_clave', 'clave_rechazada', 'clave_bloqueada', 'clave_vencida', 'segundo_factor', 'no_adherido', 'sin_representacion', 'irregularidades', 'cuit_invalido']
    ),

    // The state a CUIT shows when its systems differ: what needs a person first.
    rank: [
        'cuit_invalido',
        'clave_rechazada',
        'clave_bloqueada',
        'clave_vencida',
        'segundo_factor',
        'sin_clave',
        'sin_representacion',
        'no_adherido',
        'irregularidades',
        'captcha',
        'arca_bloqueo',
        'formato_desconocido',
        'arca_no_disponible',
        'error',
        'espera_arca',
        'pendiente',
        'ok'
    ] as readonly HealthState[],

    // The state each failure kind of the authority names (AuthorityFailureKind), recorded with
    // the failure (sync_states.last_state); a kind missing here is an 'error'.
    kinds: {
        rejected_key: 'clave_rechazada',
        blocked_key: 'clave_bloqueada',
        expired_key: 'clave_vencida',
        captcha: 'captcha',
        second_factor: 'segundo_factor',
        not_adhered: 'no_adherido',
        represented_unavailable: 'sin_representacion',
        irregularities: 'irregularidades',
        firewall_block: 'arca_bloqueo',
        session_expired: 'arca_no_disponible',
        unavailable: 'arca_no_disponible',
        unexpected_page: 'formato_desconocido'
    } as Record<string, HealthState>,

    // The authority's failure kinds of a refused key (sync_key_failures.kind).
    keyKinds: { rejected_key: 'clave_rechazada', blocked_key: 'clave_bloqueada', expired_key: 'clave_vencida' } as Record<string, KeyState>,

    // Failures that end a key's ARCA day (its own logins in the ledger, never another key's).
    dayKinds: { captcha: 'captcha', second_factor: 'segundo_factor' } as Record<string, KeyState>
};

// The tables cuitHealth reads, for a database that picks a portfolio's CUITs by state in a
// query of its own (adapters/knex/health-states.ts) rather than deriving each: the same lists,
// never a copy. What a refused key's kind names (keyRefusals), what a failure that ended a
// key's ARCA day names (dayEndings: a CAPTCHA or a second factor, or a refusal) and the order
// of what needs a person first.
export const cuitStateTables = {
    rank: internals.rank,
    keyRefusals: internals.keyKinds as Readonly<Record<string, KeyState>>,
    dayEndings: { ...internals.keyKinds, ...internals.dayKinds } as Readonly<Record<string, KeyState>>
};

// The state a failure kind of the authority names.
export const stateOfFailure = (kind: string): HealthState => internals.kinds[kind] ?? 'error';

export const healthText = (
    state: HealthState | KeyState
): HealthText => (state in internals.texts ? internals.texts[state as HealthState] : internals.keyTexts[state as 'funciona' | 'pendiente']);

export const needsAttention = (state: HealthState | KeyState): boolean => internals.attention.has(state as HealthState);

export const isKeyFailureState = (state: HealthState | KeyState): boolean => internals.keyFailures.has(state as HealthState);

export const worstState = (states: readonly HealthState[]): HealthState => internals.rank.find((state) => states.includes(state)) ?? 'ok';

// One system's record as the sync keeps it.
export interface SystemRecord {
    system: SyncSystem;
    syncedAt: Timestamp | null;
    lastAttemptAt: Timestamp | null;
    lastError: string | null;
    // The state the error names, stored with it (null: no error; a failure without one, which
    // no version since migration 020 writes, reads 'error').
    lastState: HealthState | null;
    // When the current run of failures began (null while it succeeds).
    failingSince: Timestamp | null;
}

// The state of a recorded error: the one stored with it.
export const stateOfRecord = (record: Pick<SystemRecord, 'lastError' | 'lastState'>): HealthState => (
    record.lastError === null ? 'ok' : record.lastState ?? 'error'
);

export interface SystemHealth {
    system: SyncSystem;
    state: HealthState;
    since: Timestamp | null;
    syncedAt: Timestamp | null;
    lastAttemptAt: Timestamp | null;
}

// A system never attempted, or attempted and never finished, is pending; one whose last
// attempt succeeded is ok since that success.
const systemHealth = (system: SyncSystem, record: SystemRecord | undefined): SystemHealth => {

    if (!record || (record.syncedAt === null && record.lastError === null)) {
        return { system, state: 'pendiente', since: null, syncedAt: null, lastAttemptAt: record?.lastAttemptAt ?? null };
    }

    const state = stateOfRecord(record);
    return {
        system,
        state,
        since: state === 'ok' ? record.syncedAt : record.failingSince ?? record.lastAttemptAt,
        syncedAt: record.syncedAt,
        lastAttemptAt: record.lastAttemptAt
    };
};

// The key's own logins of the ARCA day (the ledger's rows of its identity, never another key's).
export interface KeyDay {
    passwordPosts: number;
    loggedIn: boolean;
    ended: { kind: string; at: Timestamp } | null;
}

export interface KeyRecord {
    // The CUIT whose clave fiscal logs in (the client's own, or its representative's).
    loginCuit: string | null;
    hasKey: boolean;
    // The stored key's identity (clients.key_digest).
    fingerprint: string | null;
    // When the key now stored was stored: attempts before it were another key's.
    storedAt: Timestamp | null;
    // The authority refused this very key (it has not changed since).
    refused: { kind: string; at: Timestamp } | null;
    // Today's logins of this key, if any.
    today: KeyDay | null;
    // Every system of every CUIT the key reaches.
    reach: readonly SystemRecord[];
}

export interface KeyHealth {
    loginCuit: string | null;
    state: KeyState;
    since: Timestamp | null;
}

// A key's state today, from what this key did and nothing another key (another account's, or
// the one it replaced) did: refused for good until it changes (sync_key_failures); then its own
// logins of the ARCA day: a failure that ended its day, or a login that went through;
// otherwise its CUITs' last attempts since it was stored: waiting its turn, working when one got
// past the login, and pending until it is used.
export const keyHealth = (key: KeyRecord): KeyHealth => {

    const of = (state: KeyState, since: Timestamp | null): KeyHealth => ({ loginCuit: key.loginCuit, state, since });
    if (!key.hasKey) {
        return of('sin_clave', null);
    }

    const refused = key.refused ? internals.keyKinds[key.refused.kind] : undefined;
    if (refused) {
        return of(refused, key.refused!.at);
    }

    const ended = key.today?.ended ?? null;
    if (ended) {
        const state = internals.dayKinds[ended.kind] ?? internals.keyKinds[ended.kind];
        if (state) {
            return of(state, ended.at);
        }
    }
    else if (key.today?.loggedIn) {
        return of('funciona', null);
    }

    let latest: SystemRecord | null = null;
    for (const record of key.reach) {
        const mine = record.lastAttemptAt !== null && (key.storedAt === null || record.lastAttemptAt >= key.storedAt);
        if (mine && (!latest || record.lastAttemptAt! > latest.lastAttemptAt!)) {
            latest = record;
        }
    }

    if (!latest) {
        return of('pendiente', null);
    }

    const state = stateOfRecord(latest);
    if (state === 'espera_arca') {
        return of('espera_arca', latest.failingSince ?? latest.lastAttemptAt);
    }

    return isKeyFailureState(state) || state === 'cuit_invalido' ? of('pendiente', null) : of('funciona', null);
};

export interface CuitHealth {
    state: HealthState;
    since: Timestamp | null;
    key: KeyHealth | null;
    systems: SystemHealth[];
}

// A CUIT's state: its key's failure when the key fails (it stops every system), otherwise the
// state of its systems that most needs a person.
export const cuitHealth = (systems: readonly SyncSystem[], records: readonly SystemRecord[], key: KeyHealth | null): CuitHealth => {

    const bySystem = new Map(records.map((record) => [record.system, record]));
    // A refusal recorded for a key that is not refused now (a new key was stored) was the old
    // key's: the system waits for the new key's first attempt.
    const refusals = Object.values(internals.keyKinds) as string[];
    const healths = systems.map((system) => systemHealth(system, bySystem.get(system))).map((health) => (
        key && !refusals.includes(key.state) && refusals.includes(health.state) ? { ...health, state: 'pendiente' as const, since: null } : health
    ));
    if (key && isKeyFailureState(key.state)) {
        return { state: key.state as HealthState, since: key.since, key, systems: healths };
    }

    const state = worstState(healths.map((entry) => entry.state));
    const since = state === 'ok'
        ? Math.min(...healths.map((entry) => entry.since ?? Infinity))
        : Math.min(...healths.filter((entry) => entry.state === state).map((entry) => entry.since ?? Infinity));
    return { state, since: Number.isFinite(since) ? since : null, key, systems: healths };
};

// The wire form (REST, MCP): Spanish names, ISO dates, the sentences beside each state.
export interface SystemHealthView {
    sistema: string;
    estado: HealthState;
    desde: string | null;
    syncedAt: string | null;
    ultimoIntento: string | null;
    mensaje: string;
    accion: string;
}

export interface KeyHealthView {
    cuit: string | null;
    estado: KeyState;
    desde: string | null;
    mensaje: string;
    accion: string;
}

export const toSystemHealthView = (health: SystemHealth): SystemHealthView => ({
    sistema: systemNames[health.system],
    estado: health.state,
    desde: toIso(health.since),
    syncedAt: toIso(health.syncedAt),
    ultimoIntento: toIso(health.lastAttemptAt),
    ...healthText(health.state)
});

export const toKeyHealthView = (health: KeyHealth): KeyHealthView => ({
    cuit: health.loginCuit,
    estado: health.state,
    desde: toIso(health.since),
    ...healthText(health.state)
});

// "3/11/2026", as the accountant reads a date.
const shortDate = (at: Timestamp | string | null): string => {

    if (at === null) {
        return 's/f';
    }

    const date = new Date(at);
    return `${date.getUTCDate()}/${date.getUTCMonth() + 1}/${date.getUTCFullYear()}`;
};

// One sentence on a system read (MCP), `label` named with its article ("el domicilio fiscal
// electrónico (DFE)"): "Sin datos de la cuenta corriente (SCT): ARCA exige cambiar la clave
// fiscal (desde el 3/11/2026). …", "Estado del domicilio fiscal electrónico (DFE): al día.".
export const systemSentence = (label: string, view: {
    estado: HealthState | KeyState;
    desde: string | null;
    syncedAt: string | null;
    mensaje: string;
    accion: string;
}): string => {

    if (view.estado === 'ok' || view.estado === 'funciona') {
        return `Estado ${preceded('de', label)}: al día.`;
    }

    if (view.estado === 'pendiente') {
        return `Estado ${preceded('de', label)}: pendiente de la primera sincronización.`;
    }

    const head = view.syncedAt
        ? `Atención: ${label} no se ${agreeing(label, 'actualiza', 'actualizan')} desde el ${shortDate(view.syncedAt)}`
        : `Sin datos ${preceded('de', label)}`;
    // A state known without a date (no key saved) says no "desde".
    const since = view.desde ? ` (desde el ${shortDate(view.desde)})` : '';
    return `${head}: ${view.mensaje.replace(/\.$/, '')}${since}. ${view.accion}`;
};
