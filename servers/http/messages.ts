// The HTTP front end's own texts: what Node's parser, hapi's router and the transport answer
// below the use cases, in the API's error shape. The rules' messages are the core's
// (core/domain/messages.ts).

export const httpMessages = {
    unsupportedMediaType: 'El cuerpo de la solicitud debe enviarse como application/json.',
    routeNotFound: 'No existe el recurso solicitado.',
    methodNotAllowed: 'Método no permitido para este recurso.',
    invalidJson: 'El cuerpo de la solicitud no es un JSON válido.',
    payloadTooLarge: 'El cuerpo de la solicitud es demasiado grande.',
    headersTooLarge: 'Los encabezados de la solicitud son demasiado grandes.',
    requestTimeout: 'La solicitud tardó demasiado en llegar.',
    expectationFailed: "El encabezado 'Expect' no es compatible: solo se acepta '100-continue'.",
    invalidUtf8: 'El cuerpo de la solicitud no es texto UTF-8 válido.',
    forbiddenHost: 'El encabezado Host u Origin de la solicitud no está permitido para este servidor.'
} as const;
