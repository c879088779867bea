// What the OAuth authorization server says to people: its Spanish pages (sign-in and consent,
// errors) and the answers of its own endpoints.

const invalidTarget = 'El recurso solicitado no es válido: los tokens solo se emiten para el endpoint MCP.';

export const texts = {
    pageTitle: 'Autorizar acceso a arcasync',
    heading: 'Autorizar una aplicación',
    clientAsks: (client: string): string => `La aplicación «${client}» pide acceso a tu cuenta de arcasync.`,
    scopeTitle: 'Podrá, en modo de solo lectura:',
    scopeItems: [
        'ver los CUIT que gestionás;',
        'consultar sus comprobantes emitidos y recibidos, la cuenta corriente (SCT), la cuenta de monotributo y autónomos (CCMA) y las notificaciones del domicilio fiscal electrónico (DFE).'
    ],
    scopeNoWrite: 'No podrá crear, modificar ni borrar nada.',
    redirectNote: (uri: string): string => `Al terminar, volverás a ${uri}.`,
    signInLegend: 'Ingresá con tu email y contraseña de arcasync',
    email: 'Email',
    password: 'Contraseña',
    allow: 'Permitir',
    deny: 'Denegar',
    invalidCredentials: 'El email o la contraseña no son correctos.',
    registrationThrottled: 'Se registraron demasiadas aplicaciones desde esta dirección. Esperá una hora y volvé a intentar.',
    registrationFull: 'No se pueden registrar más aplicaciones en este servidor. Escribinos para liberar espacio.',
    forbiddenForm: 'El formulario no se envió desde esta página. Volvé a iniciar la conexión desde la aplicación.',
    denied: 'El usuario denegó el acceso.',
    expired: 'La solicitud de autorización venció o ya fue usada. Volvé a iniciar la conexión desde la aplicación.',
    errorTitle: 'No se pudo completar la autorización',
    invalidTarget,
    // The authorization server's own errors on the person's page, by OAuth error code (its
    // descriptions are in English and meant for developers).
    authorizationErrors: {
        invalid_client: 'La aplicación no está registrada en este servidor, o su registro venció sin usarse. Volvé a conectarla desde la aplicación.',
        invalid_redirect_uri: 'La dirección de regreso que envió la aplicación no es la que registró. Volvé a conectarla desde la aplicación.',
        invalid_scope: 'La aplicación pidió permisos que este servidor no ofrece.',
        invalid_target: invalidTarget,
        unsupported_response_type: 'La aplicación pidió un tipo de respuesta que este servidor no ofrece.'
    } as Record<string, string>,
    invalidAuthorizationRequest: 'La solicitud de autorización no es válida. Volvé a iniciar la conexión desde la aplicación.',
    // What the endpoints answer to clients in `error_description`, by OAuth error code, when
    // oidc-provider's own description is not one errors.ts says more precisely.
    oauthErrors: {
        invalid_request: 'La solicitud no es válida: falta un parámetro, sobra uno o alguno tiene un valor no admitido.',
        invalid_client: 'La aplicación (client_id) no está registrada en este servidor, o su registro venció sin usarse: registrala de nuevo.',
        invalid_grant: 'El código de autorización o el token de actualización no es válido: venció, ya se usó o corresponde a otra aplicación.',
        unauthorized_client: 'La aplicación no está autorizada a usar este tipo de concesión.',
        unsupported_grant_type: 'Tipo de concesión (grant_type) no admitido: este servidor ofrece authorization_code y refresh_token.',
        unsupported_response_type: 'Tipo de respuesta (response_type) no admitido: este servidor ofrece code.',
        unsupported_response_mode: 'Modo de respuesta (response_mode) no admitido.',
        invalid_scope: 'La aplicación pidió permisos (scope) que este servidor no ofrece.',
        invalid_target: invalidTarget,
        invalid_token: 'El token no es válido, venció o fue revocado.',
        invalid_client_metadata: 'Los datos de registro de la aplicación no son válidos.',
        invalid_redirect_uri: 'La dirección de regreso (redirect_uri) no es una de las que registró la aplicación, o no es válida.',
        access_denied: 'El usuario denegó el acceso.',
        login_required: 'Hace falta que el usuario inicie sesión.',
        consent_required: 'Hace falta que el usuario autorice el acceso.',
        interaction_required: 'Hace falta que el usuario inicie sesión y autorice el acceso.',
        request_not_supported: 'Este servidor no acepta el parámetro request.',
        request_uri_not_supported: 'Este servidor no acepta el parámetro request_uri.',
        registration_not_supported: 'Este servidor no acepta el parámetro registration.',
        temporarily_unavailable: 'El servidor de autorización no está disponible por el momento: volvé a intentar en unos minutos.',
        server_error: 'Error interno del servidor de autorización.'
    } as Record<string, string>,
    invalidOAuthRequest: 'La solicitud de autorización no es válida.',
    // An authorization request without PKCE S256 (errors.ts): what is missing, said plainly.
    pkceRequired: 'La autorización exige PKCE con S256: enviá code_challenge (el hash SHA-256 del code_verifier, en base64url) y code_challenge_method=S256.',
    // How provider.ts refuses a redirect scheme; errors.ts keeps descriptions that carry it.
    schemeRefused: 'el esquema no está entre los admitidos',
    unknownClient: 'aplicación sin nombre',
    // An OAuth server key the keyring cannot open: the process does not start (provider.ts).
    serverSecretUnreadable: (keyIds: readonly string[]): string => `Las claves del servidor OAuth (cookies, firma de tokens, CSRF) están cifradas con ${keyIds.length === 1 ? 'la clave' : 'las claves'} ${keyIds.join(', ')} y no se pueden descifrar con ARCASYNC_SECRET_KEY ni ARCASYNC_SECRET_KEYS: sin ellas no sirve ninguna sesión ni ningún token emitido. Volvé a agregar esa clave a ARCASYNC_SECRET_KEYS, ejecutá \`arcasync secret rotate\` y quitala cuando \`arcasync secret status\` no muestre nada cifrado con ella.`
} as const;
