import type { DeletedWithClient } from '../../core/domain/client.js';

// What the client forms say (es-AR): creating, editing and deleting a client. The refusals
// are the API's own messages (core/domain/messages.ts), shown beside the field they name.
// Templates take these as values, so they are escaped like everything else a page shows.

export const clientFormTexts = {
    newClient: 'Nuevo cliente',
    newIntro: 'El cliente se suma a la cartera y se sincroniza con ARCA enseguida. Cuenta igual que un CUIT creado por la API.',
    errorsIntro: 'Revisá los campos marcados:',
    tipo: 'Tipo de cliente',
    tipos: {
        'persona-fisica': 'Persona física, con su clave fiscal',
        'persona-juridica': 'Persona jurídica, representada por una persona física de la cartera'
    },
    person: 'Persona física',
    entity: 'Persona jurídica',
    contact: 'Contacto (opcional)',
    labels: {
        cuit: 'CUIT',
        nombre: 'Nombre',
        apellido: 'Apellido',
        clave_arca: 'Clave fiscal de ARCA',
        razon_social: 'Razón social',
        representante: 'CUIT del representante',
        email: 'Email',
        telefono: 'Teléfono'
    },
    hints: {
        cuit: '11 dígitos, con o sin guiones.',
        clave_arca: 'Se guarda cifrada y nunca se vuelve a mostrar.',
        representante: 'Una persona física ya cargada en la cuenta: ARCA se consulta con su clave fiscal.'
    },
    keyReplace: 'Dejala vacía para conservar la clave guardada; si escribís una, reemplaza a la anterior.',
    representativeReplace: 'El CUIT de una persona física ya cargada en la cuenta. Vacío conserva el representante actual.',
    contactClear: 'Vaciá el email o el teléfono para borrarlos.',
    create: 'Crear cliente',
    edit: 'Editar',
    editTitle: (name: string): string => `Editar ${name}`,
    save: 'Guardar cambios',
    cancel: 'Cancelar',
    remove: 'Borrar',
    deleteTitle: (name: string): string => `Borrar ${name}`,
    deleteQuestion: (name: string, cuit: string): string => `¿Borrar a ${name} (CUIT ${cuit}) de la cartera? No se puede deshacer.`,
    deleteGoes: 'Se borra con el cliente todo lo sincronizado de él:',
    // Each part of deleteCascade (core/domain/client.ts) in words: a new part there is a type error here.
    cascade: {
        invoices: 'sus comprobantes emitidos y recibidos;',
        notifications: 'sus notificaciones del domicilio fiscal electrónico (DFE);',
        sct: 'su cuenta tributaria (SCT): deudas, vencimientos y declaraciones juradas;',
        ccma: 'su CCMA: saldos y movimientos;',
        syncStates: 'el estado de cada sincronización con ARCA;',
        syncJobs: 'sus sincronizaciones pendientes, que se cancelan;',
        keyFailure: 'lo que se recuerda de una clave rechazada por ARCA;',
        tags: 'sus etiquetas asignadas (las etiquetas de la cuenta quedan);',
        managers: 'sus asignaciones a usuarios del equipo;'
    } satisfies Record<DeletedWithClient, string>,
    deleteAlso: 'y sus datos del sistema registral y su clave fiscal guardada.',
    // A legal entity keeps no key of its own (its representative's stays with the representative).
    deleteAlsoEntity: 'y sus datos del sistema registral.',
    representativeRule: 'Una persona física que representa personas jurídicas de la cuenta no se puede borrar: primero borralas o cambiales el representante.',
    confirmDelete: 'Sí, borrar el cliente',
    created: 'Cliente creado. Su primera sincronización con ARCA ya está en marcha.',
    updated: 'Cambios guardados.',
    deleted: (cuit: string): string => `Se borró el CUIT ${cuit} y todo lo sincronizado de él.`
};
