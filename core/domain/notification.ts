// docs/api.md, Resources: a notification of the electronic address (Domicilio Fiscal Electrónico).

export interface Notification {
    arcaId: string | null;
    tipo: string | null;
    asunto: string;
    organismo: string | null;
    fechaRecepcion: string;
    fechaNotificacion: string | null;
    leidaAt: string | null;
}

// How a DFE notification read from the authority enters the service: on the CUIT's first
// sync, one already read at the authority enters as read at its fechaRecepcion; afterwards
// everything new enters unread (fetch-system.ts tells the first sync by the DFE's syncedAt). A stored notification keeps its leidaAt (the
// repository does not overwrite it).
export const enteringNotification = (notification: Omit<Notification, 'leidaAt'> & { readAtAuthority: boolean }, firstSync: boolean): Notification => ({
    arcaId: notification.arcaId,
    tipo: notification.tipo,
    asunto: notification.asunto,
    organismo: notification.organismo,
    fechaRecepcion: notification.fechaRecepcion,
    fechaNotificacion: notification.fechaNotificacion,
    leidaAt: firstSync && notification.readAtAuthority ? notification.fechaRecepcion : null
});
