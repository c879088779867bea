import type { Knex } from 'knex';

// The one place an error's words are read for its state: failures recorded before the state
// was stored beside them (sync_states.last_state, migration 014) get the state their words
// name, once, in a migration (018, and 020 for rows an older process wrote during the
// upgrade), and health reads only stored states from then on.
//
// Frozen: the words are the messages the sync wrote (messages.authority and messages.sync in
// core/domain/messages.ts as of migration 018), copied here, so that rewording a message there
// changes nothing of how a row already stored reads. An error that starts with none of them
// is an 'error'.

const internals = {
    batch: 500,

    words: [
        ['ARCA rechazó la clave fiscal (CUIT o clave incorrectos); no se reintenta para no bloquearla.', 'clave_rechazada'],
        ['La clave fiscal está bloqueada en ARCA.', 'clave_bloqueada'],
        ['La clave fiscal venció en ARCA y hay que cambiarla.', 'clave_vencida'],
        ['ARCA pidió resolver un CAPTCHA para ingresar.', 'captcha'],
        ['ARCA pidió un segundo factor de autenticación.', 'segundo_factor'],
        ['El servicio de ARCA no está adherido para el CUIT.', 'no_adherido'],
        ['El representante no puede operar en ARCA en nombre del CUIT representado.', 'sin_representacion'],
        ['ARCA informa que el CUIT registra irregularidades; debe regularizarse en su dependencia.', 'irregularidades'],
        ['ARCA aplicó un bloqueo temporal por exceso de pedidos; se reintenta más tarde.', 'arca_bloqueo'],
        ['La sesión de ARCA venció antes de terminar.', 'arca_no_disponible'],
        ['ARCA no está disponible (error del servidor, demora o mantenimiento).', 'arca_no_disponible'],
        ['ARCA devolvió una página o un archivo con un formato inesperado.', 'formato_desconocido'],
        ['El CUIT no tiene clave fiscal guardada.', 'sin_clave'],
        ['La persona jurídica no tiene un representante con clave fiscal.', 'sin_clave'],
        ['La clave fiscal guardada no se pudo descifrar.', 'error'],
        ['La clave fiscal ya inició sesión en ARCA hoy todas las veces permitidas; se reintenta mañana.', 'espera_arca'],
        ['La clave fiscal todavía no ingresó nunca a ARCA y ya tuvo hoy su intento; se vuelve a probar mañana, para no bloquearla.', 'espera_arca'],
        [
            'La clave fiscal espera: esta semana ya se probaron en ARCA las claves nuevas permitidas para este CUIT, para no bloquearlo; se prueba cuando una ' +
            'clave que ya funcionó ingrese, o cuando el equipo de arcasync lo habilite.',
            'espera_arca'
        ],
        ['Error interno al sincronizar; se reintentará.', 'error']
    ] as readonly (readonly [string, string])[]
};

// The state an older error's words name.
export const stateOfOlderError = (error: string): string => internals.words.find(([words]) => error.startsWith(words))?.[1] ?? 'error';

// Every failure of sync_states without its state gets the one its words name, in batches; a
// state stored stays as it is.
export const storeStatesOfOlderErrors = async (knex: Knex): Promise<void> => {

    for (;;) {
        const rows = await knex('sync_states').select('client_id', 'system', 'last_error').whereNull('last_state').whereNotNull('last_error')
            .orderBy(['client_id', 'system']).limit(internals.batch) as { client_id: number; system: string; last_error: string }[];
        if (!rows.length) {
            return;
        }

        // One update per system and state.
        const groups = new Map<string, { system: string; state: string; ids: number[] }>();
        for (const row of rows) {
            const state = stateOfOlderError(row.last_error);
            const group = groups.get(`${row.system}:${state}`) ?? { system: row.system, state, ids: [] };
            group.ids.push(Number(row.client_id));
            groups.set(`${row.system}:${state}`, group);
        }

        for (const group of groups.values()) {
            await knex('sync_states').where({ system: group.system }).whereIn('client_id', group.ids).whereNull('last_state').update({ last_state: group.state });
        }
    }
};
