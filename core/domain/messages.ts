// Every message a person can read comes from here, so wording stays consistent across the
// REST API, the MCP tools and the CLI. The fixed ones are quoted verbatim from SPEC.md §7.

export const messages = {
    unauthenticated: 'Token de acceso ausente o inválido.',
    notFound: 'No se encontró el CUIT solicitado.',
    rateLimited: 'Se superó el límite de solicitudes. Intentá nuevamente más tarde.',
    internal: 'Error interno del servidor.',
    cuitTaken: 'El CUIT ya está registrado',
    writingDisabled: 'Tu cuenta no tiene habilitada la escritura por API. Escribinos para activarla.',
    subscriptionPaused: 'Tu suscripción está pausada porque no se pudo procesar el último pago. Actualizá el medio de pago en la página de suscripción del panel para recuperar el acceso.',
    subscriptionInactive: 'Tu suscripción finalizó o nunca se activó. Activala desde la página de suscripción del panel para recuperar el acceso.',
    unsupportedMediaType: 'El cuerpo de la solicitud debe enviarse como application/json.',
    routeNotFound: 'No existe el recurso solicitado.',
    methodNotAllowed: 'Método no permitido para este recurso.',
    invalidJson: 'El cuerpo de la solicitud no es un JSON válido.',
    payloadTooLarge: 'El cuerpo de la solicitud es demasiado grande.',

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
        cuitPath: "El CUIT de la ruta debe tener 11 dígitos, con o sin guiones (NN-NNNNNNNN-N)."
    },
    dateRangeIncomplete: "Los parámetros 'from_date' y 'to_date' deben enviarse juntos.",
    dateRangeInverted: "El parámetro 'from_date' no puede ser posterior a 'to_date'.",
    // Staff commands (CLI).
    admin: {
        accountNotFound: (id: number): string => `No existe la cuenta ${id}.`,
        userNotFound: (id: number): string => `No existe el usuario ${id}.`,
        tokenNotFound: (id: number): string => `No existe el token ${id}.`,
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
        ownerSeesAll: 'Los usuarios owner ya gestionan todos los CUIT de la cuenta; solo se asignan CUIT a usuarios member.'
    },
    unknownParameter: (name: string): string => `El parámetro '${name}' no está permitido.`,
    unknownField: (name: string): string => `El campo '${name}' no está permitido.`
} as const;
