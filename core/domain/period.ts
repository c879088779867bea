import { formatDate } from './time.js';

// SPEC §2.10 and §4.6: the period of an invoice query, both ends inclusive.
export interface DateRange {
    fromDate: string;
    toDate: string;
}

export const currentMonthUtc = (now: Date): DateRange => {

    const year = now.getUTCFullYear();
    const month = now.getUTCMonth();
    return {
        fromDate: formatDate(new Date(Date.UTC(year, month, 1))),
        toDate: formatDate(new Date(Date.UTC(year, month + 1, 0)))
    };
};

// The ends arrive checked (read-parameters.ts: dates, both or neither, in order); without
// them, the current month in UTC.
export const resolveDateRange = (input: { from_date?: string | undefined; to_date?: string | undefined }, now: Date): DateRange => (
    input.from_date === undefined || input.to_date === undefined ? currentMonthUtc(now) : { fromDate: input.from_date, toDate: input.to_date }
);

// Mis Comprobantes answers at most 365 days per query (AUTHORITY.md).
export const invoiceQueryMaxDays = 365;

// Consecutive ranges of at most `maxDays` days covering the range, oldest first.
export const splitRange = (range: DateRange, maxDays: number): DateRange[] => {

    const dayMs = 86_400_000;
    const parts: DateRange[] = [];
    const to = Date.parse(`${range.toDate}T00:00:00Z`);
    for (let from = Date.parse(`${range.fromDate}T00:00:00Z`); from <= to;) {
        const end = Math.min(to, from + (maxDays - 1) * dayMs);
        parts.push({ fromDate: formatDate(new Date(from)), toDate: formatDate(new Date(end)) });
        from = end + dayMs;
    }

    return parts;
};
