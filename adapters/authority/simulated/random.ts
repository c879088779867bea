// One seeded pseudo-random source (mulberry32) for the simulated authority's data, its random
// faults and the fuzz tests: the same seed gives the same taxpayers, the same failures and the
// same requests, so whatever a run finds can be replayed.

export interface Random {
    // A float in [0, 1).
    next(): number;
    int(min: number, max: number): number;             // both bounds included
    chance(probability: number): boolean;
    pick<T>(items: readonly T[]): T;
    bytes(length: number): Buffer;
    // Letters and digits, for values that must be told apart in a log.
    word(length: number): string;
}

const internals = {
    alphabet: 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789'
};

export const seededRandom = (seed: number): Random => {

    let state = seed >>> 0;
    const next = (): number => {

        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };

    const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
    return {
        next,
        int,
        chance: (probability) => probability > 0 && next() < probability,
        pick: (items) => items[Math.floor(next() * items.length)]!,
        bytes: (length) => Buffer.from(Array.from({ length }, () => int(0, 255))),
        word: (length) => Array.from({ length }, () => internals.alphabet[int(0, internals.alphabet.length - 1)]).join('')
    };
};

// A seed from a text (FNV-1a): a taxpayer's data follows from its CUIT and the day.
export const seedOf = (text: string): number => {

    let hash = 2166136261;
    for (const char of text) {
        hash ^= char.charCodeAt(0);
        hash = Math.imul(hash, 16777619);
    }

    return hash >>> 0;
};
