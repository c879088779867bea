// The rules' messages: what the core refuses or records, read the same through the REST API,
// the MCP tools and the CLI (the fixed ones: docs/api.md, Errors). Each front end's own texts
// live beside it: servers/http/messages.ts, servers/mcp/messages.ts, cli/messages.ts,
// app/messages.ts (operators, the demo), servers/oauth/texts.ts.

export const messages = {
    unauthenticated: 'Token de acceso ausente o inválido.',
    notFound: 'No se encontró el CUIT solicitado.',
    rateLimited: 'Se superó el límite de solicitudes. Intentá nuevamente más tarde.',
    internal: 'Error interno del servidor.',
    // The database cannot be reached or is locked for now: 503 with Retry-After.
    unavailable: 'El servicio no está disponible en este momento. Intentá nuevamente en unos segundos.',
    cuitTaken: 'El CUIT ya está registrado',
    writingDisabled: 'Tu cuenta no tiene habilitada la escritura por API. Escribinos para activarla.',
    subscriptionPaused: 'Tu suscripción está pausada porque no se pudo procesar el último pago. Actualizá el medio de pago en la página de suscripción del panel para recuperar el acceso.',
    subscriptionInactive: 'Tu suscripción finalizó o nunca se activó. Activala desde la página de suscripción del panel para recuperar el acceso.',
    // What the HTTP layer answers for requests it cannot take at all (malformed or unusual HTTP).
    invalidRequest: 'La solicitud no es válida.',

    // Field-level validation: each names the failing field.
    field: {
        limit: "El parámetro 'limit' debe ser un número entero entre 1 y 100.",
        offset: "El parámetro 'offset' debe ser un número entero mayor o igual a 0.",
        etiquetas: "El parámetro 'etiquetas' debe ser uno o más nombres de etiqueta.",
        monotributista: "El parámetro 'monotributista' debe ser true o false.",
        autonomo: "El parámetro 'autonomo' debe ser true o false.",
        categoria: "El parámetro 'categoria' debe ser una de las categorías A, B, C, D, E, F, G, H, I, J o K.",
        from_date: "El parámetro 'from_date' debe ser una fecha válida con formato AAAA-MM-DD.",
        to_date: "El parámetro 'to_date' debe ser una fecha válida con formato AAAA-MM-DD.",
        cuitPath: 'El CUIT de la ruta debe tener 11 dígitos, con o sin guiones (NN-NNNNNNNN-N).',
        cuit: "El parámetro 'cuit' es obligatorio y debe ser un CUIT de 11 dígitos, con o sin guiones (NN-NNNNNNNN-N).",
        estado: "El parámetro 'estado' debe ser uno o más de: ok, pendiente, sin_clave, clave_rechazada, clave_bloqueada, clave_vencida, captcha, segundo_factor, no_adherido, sin_representacion, irregularidades, arca_bloqueo, arca_no_disponible, formato_desconocido, espera_arca, cuit_invalido, error.",
        requiere_atencion: "El parámetro 'requiere_atencion' debe ser true o false.",
        riesgo: "El parámetro 'riesgo' debe ser uno o más de: tope_cerca, tope_superado, exclusion.",
        desde: "El parámetro 'desde' debe ser una fecha válida con formato AAAA-MM-DD.",
        hasta: "El parámetro 'hasta' debe ser una fecha válida con formato AAAA-MM-DD.",
        desdeMes: "El parámetro 'desde' debe ser un mes válido con formato AAAA-MM.",
        hastaMes: "El parámetro 'hasta' debe ser un mes válido con formato AAAA-MM."
    },
    // The answers' ranges (docs/answers.md).
    answerRange: {
        inverted: "El parámetro 'desde' no puede ser posterior a 'hasta'.",
        tooManyDays: (max: number): string => `El período entre 'desde' y 'hasta' no puede superar ${max} días.`,
        tooManyMonths: (max: number): string => `El período entre 'desde' y 'hasta' no puede superar ${max} meses.`
    },
    dateRangeIncomplete: "Los parámetros 'from_date' y 'to_date' deben enviarse juntos.",
    dateRangeInverted: "El parámetro 'from_date' no puede ser posterior a 'to_date'.",
    // Staff commands (CLI).
    admin: {
        accountNotFound: (id: number): string => `No existe la cuenta ${id}.`,
        userNotFound: (id: number): string => `No existe el usuario ${id}.`,
        tokenNotFound: (id: number): string => `No existe el token ${id}.`,
        connectionNotFound: 'No existe esa conexión.',
        clientNotInAccount: (cuit: string): string => `El CUIT ${cuit} no pertenece a la cuenta.`,
        tagNotFound: (name: string): string => `No existe la etiqueta '${name}' en la cuenta.`,
        tagTaken: (name: string): string => `Ya existe la etiqueta '${name}' en la cuenta.`,
        emailTaken: (email: string): string => `Ya existe un usuario con el email ${email}.`,
        invalidEmail: 'El email no tiene un formato válido.',
        invalidName: 'El nombre no puede estar vacío.',
        invalidColor: "El color debe tener el formato '#RRGGBB'.",
        invalidRole: "El rol debe ser 'owner' o 'member'.",
        invalidSubscription: "La suscripción debe ser 'active', 'paused', 'ended' o 'inactive'.",
        invalidCuit: 'El CUIT debe tener 11 dígitos, con o sin guiones (NN-NNNNNNNN-N).',
        shortPassword: (min: number): string => `La contraseña debe tener al menos ${min} caracteres.`,
        ownerSeesAll: 'Los usuarios owner ya gestionan todos los CUIT de la cuenta; solo se asignan CUIT a usuarios member.',
        // A name staff give (`what`: "El nombre de la cuenta"), refused before it is stored.
        nameCharacters: (what: string): string => `${what} no puede tener caracteres de control (como ESC) ni saltos de línea.`,
        nameTooLong: (what: string, max: number): string => `${what} puede tener hasta ${max} caracteres.`,
        // Staff act on one account's client of a CUIT (resync, sync --cuit, authority probe).
        cuitNotInAccount: (cuit: string, accountId: number): string => `La cuenta ${accountId} no gestiona el CUIT ${cuit}.`
    },
    // Creating, editing and deleting clients (POST, PATCH, DELETE /v1/cuits): each names its field.
    clientWrite: {
        bodyNotObject: 'El cuerpo de la solicitud debe ser un objeto JSON.',
        required: (name: string): string => `El campo '${name}' es obligatorio.`,
        tipo: "El campo 'tipo' debe ser 'persona-fisica' o 'persona-juridica'.",
        cuit: "El campo 'cuit' debe tener 11 dígitos, con o sin guiones (NN-NNNNNNNN-N).",
        nombre: "El campo 'nombre' debe ser un texto de 1 a 200 caracteres.",
        apellido: "El campo 'apellido' debe ser un texto de 1 a 200 caracteres.",
        razon_social: "El campo 'razon_social' debe ser un texto de 1 a 255 caracteres.",
        clave_arca: "El campo 'clave_arca' debe ser un texto de 1 a 200 caracteres.",
        representante: "El campo 'representante' debe ser un CUIT de 11 dígitos, con o sin guiones (NN-NNNNNNNN-N).",
        email: "El campo 'email' debe ser una dirección de email válida (hasta 254 caracteres) o null.",
        telefono: "El campo 'telefono' debe ser un texto de hasta 60 caracteres o null.",
        characters: (name: string): string => `El campo '${name}' contiene caracteres no permitidos (caracteres de control o texto que no es UTF-8 válido).`,
        representativeNotFound: "El campo 'representante' debe ser el CUIT de una persona física ya cargada en la cuenta.",
        monotributista: "El campo 'monotributista' no se puede enviar: lo determina la sincronización con el sistema registral de ARCA.",
        autonomo: "El campo 'autonomo' no se puede enviar: lo determina la sincronización con el sistema registral de ARCA.",
        notApplicable: (name: string, tipo: string): string => `El campo '${name}' no corresponde a un cliente de tipo '${tipo}'.`,
        notNullable: (name: string): string => `El campo '${name}' no acepta null: solo 'email' y 'telefono' se pueden borrar.`,
        emptyPatch: 'El cuerpo de la edición no puede estar vacío: enviá al menos un campo a modificar.',
        immutable: "El CUIT y el campo 'tipo' no se pueden modificar ('cuit', 'tipo'). Para corregir un CUIT, eliminá el cliente y crealo de nuevo.",
        representsEntities: 'El cliente es representante de personas jurídicas de la cuenta: eliminalas o cambiales el representante primero.',
        // The sealed keys' encryption key, as the secret box finds it.
        secretKeyInvalid: (name: string): string => `${name} debe contener claves de 32 bytes codificadas en base64.`,
        secretKeyUnknown: (keyId: string): string => `No se encontró la clave de cifrado ${keyId}: agregala a ARCASYNC_SECRET_KEYS.`,
        secretCorrupt: 'Una credencial guardada no se pudo descifrar: fue alterada o no corresponde a la clave.',
        // The installation's key identity secret sealed under a key the process lacks: 503,
        // and the operator's note for the log and for `serve` / the workers at start.
        keyIdentityUnavailable: 'No se pueden guardar claves fiscales en este momento: el servicio no puede leer su clave de cifrado. Avisá a quien administra arcasync; no se guardó nada.',
        keyIdentityUnreadable: (keyId: string): string => `El secreto que identifica las claves fiscales (arca-key-identity) está cifrado con la clave ${keyId} y no se puede descifrar con ARCASYNC_SECRET_KEY ni ARCASYNC_SECRET_KEYS: sin él no se puede guardar ni sincronizar ninguna clave fiscal. Volvé a agregar esa clave a ARCASYNC_SECRET_KEYS, reiniciá, ejecutá \`arcasync secret rotate\` y quitala cuando \`arcasync secret status\` no muestre nada cifrado con ella. No lo reemplaces: uno nuevo haría que cada clave guardada parezca distinta.`
    },
    // The authority's answers as the synchronization records them (AuthorityFailure kinds).
    authority: {
        rejected_key: 'ARCA rechazó la clave fiscal (CUIT o clave incorrectos); no se reintenta para no bloquearla.',
        blocked_key: 'La clave fiscal está bloqueada en ARCA.',
        expired_key: 'La clave fiscal venció en ARCA y hay que cambiarla.',
        captcha: 'ARCA pidió resolver un CAPTCHA para ingresar.',
        second_factor: 'ARCA pidió un segundo factor de autenticación.',
        not_adhered: 'El servicio de ARCA no está adherido para el CUIT.',
        represented_unavailable: 'El representante no puede operar en ARCA en nombre del CUIT representado.',
        irregularities: 'ARCA informa que el CUIT registra irregularidades; debe regularizarse en su dependencia.',
        firewall_block: 'ARCA aplicó un bloqueo temporal por exceso de pedidos; se reintenta más tarde.',
        session_expired: 'La sesión de ARCA venció antes de terminar.',
        unavailable: 'ARCA no está disponible (error del servidor, demora o mantenimiento).',
        unexpected_page: 'ARCA devolvió una página o un archivo con un formato inesperado.',
        too_large: 'ARCA devolvió una respuesta más grande de lo admitido; no se guardó y se vuelve a intentar en la sincronización del día siguiente.'
    },
    // Synchronization: what `sync status` shows per system, and the sync commands.
    sync: {
        noKey: 'El CUIT no tiene clave fiscal guardada.',
        meterUnread: 'No se pudo leer el facturómetro de ARCA; se conserva la última lectura',
        noRepresentative: 'La persona jurídica no tiene un representante con clave fiscal.',
        unreadableKey: 'La clave fiscal guardada no se pudo descifrar.',
        keyNotRetried: 'No se reintenta hasta que se cambie la clave.',
        loginsUsedToday: 'La clave fiscal ya inició sesión en ARCA hoy todas las veces permitidas; se reintenta mañana.',
        loginsEndedToday: (what: string): string => `${what} Hoy no se vuelve a iniciar sesión con esta clave; se reintenta mañana.`,
        unprovenToday: 'La clave fiscal todavía no ingresó nunca a ARCA y ya tuvo hoy su intento; se vuelve a probar mañana, para no bloquearla.',
        unprovenWeek: 'La clave fiscal espera: esta semana ya se probaron en ARCA las claves nuevas permitidas para este CUIT, para no bloquearlo; se prueba cuando una clave que ya funcionó ingrese, o cuando el equipo de arcasync lo habilite.',
        invalidCuit: (cuit: string): string => `El CUIT ${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)} no es válido (su dígito verificador no corresponde) y no se envía a ARCA.`,
        internal: 'Error interno al sincronizar; se reintentará.',
        nothingToRun: 'Indicá qué sincronizar: --cuit CUIT, --due o --all.',
        // resync, sync --cuit and authority probe act for one account's client (each has its own key).
        severalAccounts: (cuit: string, accounts: readonly { id: number; name: string }[]): string => `El CUIT ${cuit} lo gestionan ${accounts.length} cuentas: ${
            accounts.map((account) => `${account.id} (${account.name})`).join(', ')}. Indicá cuál con --account ID.`,
        accountWithoutCuit: 'La opción --account elige la cuenta de los CUIT indicados con --cuit: usala junto con --cuit.',
        simulatedDatabase: "Esta base de datos la creó la demostración (npm start): sus CUIT y claves son de prueba y no se envían a ARCA. Usala con AUTHORITY=simulated, o sincronizá una base propia creada con 'arcasync migrate'."
    },
    // Webhooks (`arcasync webhook …`).
    webhook: {
        notFound: (id: number): string => `No existe el webhook ${id}.`,
        disabled: (id: number): string => `El webhook ${id} está deshabilitado.`
    },
    // A user changing their own password (the panel's account page, change-password.ts).
    password: {
        wrongCurrent: 'La contraseña actual no es correcta.',
        mismatch: 'Las dos contraseñas nuevas no coinciden.',
        unchanged: 'La contraseña nueva debe ser distinta de la actual.'
    },
    // Importing clients from a file (the panel's import, core/use-cases/import-clients.ts): the
    // file as a whole, then a row's own conflicts (its fields get clientWrite's messages).
    clientImport: {
        empty: 'El archivo no tiene filas de clientes: completá la plantilla debajo de la fila de títulos.',
        tooManyRows: (max: string): string => `El archivo tiene más de ${max} filas de clientes: dividilo en archivos más chicos.`,
        duplicate: (row: number): string => `El CUIT ya figura en la fila ${row} del archivo.`,
        representativeRefused: (row: number): string => `El representante es el de la fila ${row}, que tiene errores: corregí las dos filas y volvé a importarlas.`,
        gone: 'La importación no existe, venció, ya se confirmó o la reemplazó un archivo que subiste después: subí el archivo de nuevo.'
    },
    // The team (the panel's /panel/equipo and the CLI's `user` commands).
    team: {
        ownersOnly: 'Solo los usuarios owner de la cuenta administran sus etiquetas y su equipo.',
        lastOwner: 'La cuenta tiene que conservar al menos un usuario owner: designá otro owner antes de quitarle el rol o eliminar a este.',
        // An unknown, used and expired link alike: nothing tells one from the others.
        invitationUnusable: 'El enlace no es válido: puede haber vencido (dura 7 días), ya haberse usado o estar incompleto. Pedile a un usuario owner de tu cuenta un enlace nuevo.',
        invitationThrottled: 'Hubo demasiados intentos con enlaces inválidos. Esperá unos minutos y volvé a intentar.',
        notPending: 'El usuario ya definió su contraseña: no se le genera un enlace nuevo.',
        // Told on the invitation's link, to whoever holds the address (they know their account).
        emailInUse: 'Tu e-mail ya tiene un usuario en arcasync, en otro estudio, y cada e-mail ingresa a un solo estudio: no se puede aceptar esta invitación con él. Ingresá con tu contraseña de siempre, o pedile a quien te invitó que te invite con otra dirección de e-mail.'
    },
    // Signing in on the OAuth authorization page (the signIn use case).
    signInThrottled: 'Hubo demasiados intentos de ingreso fallidos. Esperá unos minutos y volvé a intentar.',
    // The MCP tools' own arguments (docs/api.md, MCP).
    mcp: {
        invoiceKind: "El parámetro 'tipo' es obligatorio y debe ser 'emitidos' o 'recibidos'.",
        ccmaQuery: "El parámetro 'consulta' debe ser 'saldos' (por omisión) o 'movimientos'."
    },
    unknownParameter: (name: string): string => `El parámetro '${name}' no está permitido.`,
    unknownField: (name: string): string => `El campo '${name}' no está permitido.`
} as const;
