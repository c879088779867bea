// es-AR formats for a client's data: money as `$ 1.234.567,89` (a plain space after the sign,
// so a page, a test and a person all read the same characters), calendar days as dd/mm/aaaa,
// instants on ARCA's clock (Buenos Aires).

const internals = {
    amount: new Intl.NumberFormat('es-AR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    moment: new Intl.DateTimeFormat('es-AR', {
        timeZone: 'America/Argentina/Buenos_Aires', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23'
    }),
    monthLabel: new Intl.DateTimeFormat('es-AR', { timeZone: 'UTC', month: 'short', year: '2-digit' }),
    monthName: new Intl.DateTimeFormat('es-AR', { timeZone: 'UTC', month: 'long', year: 'numeric' })
};

export const formatMoney = (value: number): string => {

    const cents = Math.round(value * 100) / 100;
    return `${cents < 0 ? '-' : ''}$ ${internals.amount.format(Math.abs(cents))}`;
};

// A calendar day, whether it comes as YYYY-MM-DD or as its midnight in UTC (how the API
// carries invoice dates and due dates): the day itself, never shifted by a time zone.
export const formatCalendarDay = (value: string): string => `${value.slice(8, 10)}/${value.slice(5, 7)}/${value.slice(0, 4)}`;

// An instant (a notification's arrival, a sync): its day and time in Buenos Aires.
export const formatMoment = (iso: string): string => internals.moment.format(new Date(iso)).replace(',', '');

// ARCA's periods: YYYYMM (SCT) as mm/aaaa; CCMA's already come as MM/YYYY.
export const formatYearMonth = (period: string): string => (/^\d{6}$/.test(period) ? `${period.slice(4, 6)}/${period.slice(0, 4)}` : period);

// A month of the chart ("mar 26") and of its table ("marzo de 2026"), from its first day.
export const monthLabel = (firstDay: string): string => internals.monthLabel.format(new Date(`${firstDay}T00:00:00Z`)).replace('.', '');
export const monthName = (firstDay: string): string => internals.monthName.format(new Date(`${firstDay}T00:00:00Z`));
