import type { RateLimits, RateWindows } from '../domain/rate-limit.js';

// The counts of both windows after a request was counted (other processes' requests included).
export interface RateLimitUsage {
    minute: number;
    month: number;
}

export type RateLimitOutcome =
    | { allowed: true; usage: RateLimitUsage }
    | { allowed: false; exceeded: 'minute' | 'month' };

// Counts a user's request in both windows atomically, shared by every server process; a
// request that would exceed either limit is not counted. When both are exceeded the month
// is reported, since waiting a minute would not help.
export interface RateLimitCounter {
    consume(userId: number, windows: RateWindows, limits: RateLimits): Promise<RateLimitOutcome>;
}
