// es-AR formats for what the panel shows: dates as dd/mm/aaaa, on ARCA's calendar (Buenos Aires).

const internals = {
    count: new Intl.NumberFormat('es-AR', { maximumFractionDigits: 0 }),
    day: new Intl.DateTimeFormat('es-AR', { timeZone: 'America/Argentina/Buenos_Aires', day: '2-digit', month: '2-digit', year: 'numeric' })
};

export const formatDay = (iso: string): string => internals.day.format(new Date(iso));

// 1.234, as es-AR groups thousands.
export const formatCount = (count: number): string => internals.count.format(count);
