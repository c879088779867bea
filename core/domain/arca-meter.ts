// ARCA's own billing meter of a monotributista (docs/answers.md, ARCA's meter): what the
// monotributo service counts against the category's cap over its period, and whether ARCA asks
// the taxpayer to recategorize, with the window. Read during the daily sync; shown beside
// arcasync's own figure, never instead of it (public sources do not say how ARCA nets credit
// notes or which days its period covers).
export interface ArcaMeter {
    facturado: number | null;                 // CalcularFacturacion `valor` (a 0 is not trusted)
    tope: number | null;                      // `valorTope`
    periodo: string | null;                   // `fechas`, as ARCA words it
    debeRecategorizar: boolean | null;        // deberecategorizar `showAlertaRecategorizacion`
    recategorizacionDesde: string | null;     // YYYY-MM-DD
    recategorizacionHasta: string | null;
}

// The latest reading stored for a client, with when it was read.
export interface ArcaMeterReading extends ArcaMeter {
    leidoAt: number;
}

// The longest `periodo` kept (adapters/knex/schema.ts arca_meters.periodo).
export const arcaPeriodMaxLength = 100;
