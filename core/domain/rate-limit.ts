// docs/api.md, Limits: per-user limits over a clock minute and a calendar month in UTC.

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

// What an authenticated answer tells about the user's limits, GitHub-style: the limit closest
// to running out (the month's on a tie, since waiting does not help there), what is left of
// it and when it is released (Unix seconds).
export interface RateLimitStatus {
    limit: number;
    remaining: number;
    resetAt: number;
}

export const rateLimitStatus = (usage: { minute: number; month: number }, limits: RateLimits, windows: RateWindows): RateLimitStatus => {

    const minute = { limit: limits.perMinute, remaining: Math.max(0, limits.perMinute - usage.minute), resetAt: windows.minuteReset };
    const month = { limit: limits.perMonth, remaining: Math.max(0, limits.perMonth - usage.month), resetAt: windows.monthReset };
    return month.remaining <= minute.remaining ? month : minute;
};
