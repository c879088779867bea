import { formatDate } from './time.js';

// docs/api.md, Reads: the period of an invoice query, both ends inclusive.
export interface DateRange {
    fromDate: string;
    toDate: string;
}

const currentMonthUtc = (now: Date): DateRange => {

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
