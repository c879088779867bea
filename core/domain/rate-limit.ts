// SPEC §8: per-user limits over a clock minute and a calendar month in UTC.

export interface RateLimits {
    perMinute: number;
    perMonth: number;
}

export const defaultRateLimits: RateLimits = { perMinute: 100, perMonth: 200_000 };

export interface RateWindows {
    minuteStart: number;    // Unix seconds
    minuteReset: number;
    monthStart: number;     // Unix seconds of day 1, 00:00 UTC
    monthReset: number;
}

export const windowsAt = (now: Date): RateWindows => {

    const seconds = Math.floor(now.getTime() / 1000);
    const minuteStart = seconds - (seconds % 60);
    const year = now.getUTCFullYear();
    const month = now.getUTCMonth();
    return {
        minuteStart,
        minuteReset: minuteStart + 60,
        monthStart: Date.UTC(year, month, 1) / 1000,
        monthReset: Date.UTC(year, month + 1, 1) / 1000
    };
};
