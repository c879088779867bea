// Calendar arithmetic on the strings the API shows: days 'YYYY-MM-DD' and months 'YYYY-MM'.
// Computed in UTC on purpose: these are calendar names, not instants, so no zone can shift them.

const internals = {
    dayMs: 24 * 60 * 60_000,
    // The first day of a month as a UTC Date.
    start: (mes: string): Date => new Date(Date.UTC(Number(mes.slice(0, 4)), Number(mes.slice(5, 7)) - 1, 1))
};

export const monthOf = (day: string): string => day.slice(0, 7);

export const addMonths = (mes: string, count: number): string => {

    const date = internals.start(mes);
    date.setUTCMonth(date.getUTCMonth() + count);
    return date.toISOString().slice(0, 7);
};

export const addDays = (day: string, count: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + count * internals.dayMs).toISOString().slice(0, 10);

export const firstDayOf = (mes: string): string => `${mes}-01`;

export const lastDayOf = (mes: string): string => addDays(firstDayOf(addMonths(mes, 1)), -1);

// 0 Sunday … 6 Saturday.
export const weekdayOf = (day: string): number => new Date(`${day}T00:00:00Z`).getUTCDay();

// The months from `desde` to `hasta`, both included, in order.
export const monthsBetween = (desde: string, hasta: string): string[] => {

    const months = [];
    for (let mes = desde; mes <= hasta; mes = addMonths(mes, 1)) {
        months.push(mes);
    }

    return months;
};

// Whole days from `desde` to `hasta` (negative when hasta comes first).
export const daysBetween = (desde: string, hasta: string): number => Math.round((Date.parse(`${hasta}T00:00:00Z`) - Date.parse(`${desde}T00:00:00Z`)) / internals.dayMs);
