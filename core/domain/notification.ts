// SPEC §2.8: a notification of the electronic address (Domicilio Fiscal Electrónico).

export interface Notification {
    arcaId: string | null;
    tipo: string | null;
    asunto: string;
    organismo: string | null;
    fechaRecepcion: string;
    fechaNotificacion: string | null;
    leidaAt: string | null;
}
