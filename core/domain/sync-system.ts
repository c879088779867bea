// The systems synchronized per CUIT; each keeps its own syncedAt (docs/architecture.md, A synchronization).

export const syncSystems = ['registry', 'issued_invoices', 'received_invoices', 'sct', 'ccma', 'dfe'] as const;
export type SyncSystem = typeof syncSystems[number];
