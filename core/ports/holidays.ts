// Argentina's national holidays, for the agenda's business days (core/domain/agenda.ts): a
// library keeps them (adapters/holidays/argentina.ts), since the movable ones change by decree.
export interface HolidayCalendar {
    // Whether `day` (YYYY-MM-DD) is a national holiday.
    isHoliday(day: string): boolean;
}
