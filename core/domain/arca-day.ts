import type { Timestamp } from './time.js';

// The authority's day is Buenos Aires' calendar day: "one login per key per day" and the
// nightly window count in it. Argentina has kept UTC−3 all year, with no daylight saving,
// since 2009, so a fixed offset says it without a time-zone database.

const internals = {
    offsetMs: 3 * 60 * 60_000,
    dayMs: 24 * 60 * 60_000
};

export const arcaDay = (at: Timestamp): string => new Date(at - internals.offsetMs).toISOString().slice(0, 10);

// The instant a Buenos Aires day begins.
export const arcaDayStart = (day: string): Timestamp => Date.parse(`${day}T00:00:00.000Z`) + internals.offsetMs;

export const nextArcaDayStart = (at: Timestamp): Timestamp => arcaDayStart(arcaDay(at)) + internals.dayMs;

// "HH:MM" in Buenos Aires as milliseconds after its midnight; null when malformed.
export const parseArcaTime = (text: string): number | null => {

    const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
    if (!match || Number(match[1]) > 24 || Number(match[2]) > 59 || (Number(match[1]) === 24 && Number(match[2]) > 0)) {
        return null;
    }

    return (Number(match[1]) * 60 + Number(match[2])) * 60_000;
};
