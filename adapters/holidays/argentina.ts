import Holidays from 'date-holidays';
import type { HolidayCalendar } from '../../core/ports/holidays.js';

// Argentina's national holidays from date-holidays (docs/answers.md, Agenda): a maintained
// library with the fixed ones, the movable ones (moved to a Monday by Ley 27.399) and Carnival
// and Easter by the calendar, so no table here needs editing every year. Its "public" holidays
// count, and its "bank" ones: the bridge holidays decreed for tourism (feriados puente) and
// Holy Thursday, when public offices close. Its "optional" days (non-working days employers may
// keep open, Christmas and New Year's Eve) do not move a due date. Each year is read once.

const internals = {
    calendar: new Holidays('AR'),
    years: new Map<number, ReadonlySet<string>>(),
    counted: new Set(['public', 'bank']),

    year(year: number): ReadonlySet<string> {

        let days = internals.years.get(year);
        if (!days) {
            const counted = internals.calendar.getHolidays(year).filter((holiday) => internals.counted.has(holiday.type));
            days = new Set(counted.map((holiday) => holiday.date.slice(0, 10)));
            internals.years.set(year, days);
        }

        return days;
    }
};

export const argentineHolidays: HolidayCalendar = {
    isHoliday: (day) => internals.year(Number(day.slice(0, 4))).has(day)
};
