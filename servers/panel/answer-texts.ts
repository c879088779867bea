// What the panel's answers say (es-AR; docs/answers.md): the cap's use in la cartera, the
// client's Monotributo and IVA tabs, the Agenda page and the private calendar address on
// Mi cuenta. Templates take these as values, so they are escaped like everything else.

const percent = new Intl.NumberFormat('es-AR', { style: 'percent', maximumFractionDigits: 1 });

// 0,8734 as "87,3 %" (es-AR's grouping and decimal comma; the space before the sign is ICU's).
export const formatPercent = (ratio: number): string => percent.format(ratio);

export const answerTexts = {
    capColumn: 'Tope',
    capOf: (use: string, categoria: string): string => `${use} del tope de la categoría ${categoria}`,
    noCategory: 'Sin categoría',

    monotributoTab: 'Monotributo',
    ivaTab: 'IVA',
    gaugeTitle: 'Uso del tope',
    gaugeDescription: 'Facturación de los últimos 12 meses frente al tope de la categoría y al de la categoría K.',
    againstCategory: (categoria: string): string => `Tope de la categoría ${categoria}`,
    againstK: 'Tope máximo (categoría K)',
    billed: (window: string, amount: string): string => `Facturado ${window}: ${amount}`,
    windowOf: (from: string, to: string): string => `de ${from} a ${to}`,
    categoryRegistered: 'Categoría en el registro',
    categoryImplied: 'Categoría según la facturación',
    outOfRegime: 'Fuera del régimen: la facturación supera el tope de la categoría K.',
    cap: 'Tope de la categoría',
    purchases: 'Compras de los últimos 12 meses',
    purchasesUse: (use: string): string => `${use} del tope máximo`,
    goodsThreshold: 'Umbral de exclusión: venta de bienes (80 %)',
    servicesThreshold: 'Umbral de exclusión: servicios (40 %)',
    exceeded: 'superado',
    notExceeded: 'no superado',
    nextRecategorization: 'Próxima recategorización',
    recategorization: (from: string, to: string, evalFrom: string, evalTo: string, now: boolean): string =>
        `${now ? 'En curso: ' : ''}del ${from} al ${to}; evalúa de ${evalFrom} a ${evalTo}.`,
    projection: 'Proyección',
    projectionPasses: (month: string, pace: string): string => `Al ritmo de los últimos tres meses (${pace} por mes) superaría el tope en ${month}.`,
    projectionSafe: (pace: string): string => `Al ritmo de los últimos tres meses (${pace} por mes) no superaría el tope en los próximos meses.`,
    table: (from: string, source: string): string => `Tabla de categorías vigente desde ${from} (${source}).`,
    monthChartTitle: 'Facturación y compras de los últimos 12 meses, en pesos',
    monthChartDescription: 'Barras por mes: facturado (emitidos que cuentan para el tope) y compras.',
    monthBar: (month: string, billed: string, bought: string): string => `${month}: facturado ${billed}, compras ${bought}`,
    billedLegend: 'Facturado',
    purchasesLegend: 'Compras',

    ivaHeading: 'Posición de IVA por mes',
    ivaColumns: { mes: 'Mes', debito: 'Débito fiscal', credito: 'Crédito fiscal', saldo: 'Saldo técnico', emitidos: 'Emitidos', recibidos: 'Recibidos' },
    total: 'Total',
    leavesOut: 'No incluye',

    agendaTitle: 'Agenda',
    agendaForm: 'Elegir las fechas',
    from: 'Desde',
    to: 'Hasta',
    show: 'Ver',
    agendaRange: (from: string, to: string, count: string): string => `Del ${from} al ${to}: ${count} vencimientos`,
    agendaEmpty: 'No hay vencimientos en esas fechas.',
    badDate: 'Las fechas no son válidas: usá el formato aaaa-mm-dd.',
    amount: 'Importe',

    calendarHeading: 'Calendario privado',
    calendarExplanation: 'Una dirección secreta con la agenda de tus clientes, para suscribirte desde Google Calendar, Outlook o el calendario del teléfono. Quien la tenga ve tus vencimientos: no la compartas.',
    calendarCreated: 'Copiá la dirección ahora: no se vuelve a mostrar. Si la perdés, creá otra (la anterior deja de funcionar).',
    calendarAddress: 'Dirección del calendario',
    calendarCreate: 'Crear la dirección',
    calendarReplace: 'Crear una dirección nueva (revoca la anterior)',
    calendarRevoke: 'Revocar la dirección',
    calendarRevoked: 'La dirección se revocó: los calendarios suscritos dejan de recibir la agenda.',
    calendarNoneToRevoke: 'No había una dirección para revocar.'
};
