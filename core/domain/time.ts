// Instants are carried as epoch milliseconds (portable across SQLite and MySQL, cheap to
// index) and shown as ISO 8601 UTC strings; calendar dates are 'YYYY-MM-DD' strings.

export type Timestamp = number;

export const toIso = (ms: Timestamp | null): string | null => (ms === null ? null : new Date(ms).toISOString());

// A calendar date shown where the spec asks for a date-time: midnight UTC of that day.
export const dateToIso = (date: string): string => `${date}T00:00:00.000Z`;

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

export const isCalendarDate = (value: string): boolean => {

    const match = datePattern.exec(value);
    if (!match) {
        return false;
    }

    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

export const formatDate = (date: Date): string => date.toISOString().slice(0, 10);
