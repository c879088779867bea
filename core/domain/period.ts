import { invalid } from './errors.js';
import { messages } from './messages.js';
import { formatDate, isCalendarDate } from './time.js';

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

// Either both ends or neither; without them, the current month in UTC.
export const resolveDateRange = (input: { fromDate?: string | undefined; toDate?: string | undefined }, now: Date): DateRange => {

    const failures: string[] = [];
    if (input.fromDate !== undefined && !isCalendarDate(input.fromDate)) {
        failures.push(messages.field.from_date);
    }

    if (input.toDate !== undefined && !isCalendarDate(input.toDate)) {
        failures.push(messages.field.to_date);
    }

    if ((input.fromDate === undefined) !== (input.toDate === undefined)) {
        failures.push(messages.dateRangeIncomplete);
    }

    if (failures.length) {
        throw invalid(failures);
    }

    if (input.fromDate === undefined || input.toDate === undefined) {
        return currentMonthUtc(now);
    }

    if (input.fromDate > input.toDate) {
        throw invalid([messages.dateRangeInverted]);
    }

    return { fromDate: input.fromDate, toDate: input.toDate };
};
