// A seeded pseudo-random source (mulberry32): the same seed gives the same requests, so a
// failure found by the fuzz suite can be replayed with FUZZ_SEED.

export interface Random {
    // A float in [0, 1).
    next(): number;
    int(min: number, max: number): number;
    chance(probability: number): boolean;
    pick<T>(items: readonly T[]): T;
    bytes(length: number): Buffer;
    // Letters and digits, for values that must be told apart in a log.
    word(length: number): string;
}

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
    const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
    return {
        next,
        int,
        chance: (probability) => next() < probability,
        pick: (items) => items[Math.floor(next() * items.length)]!,
        bytes: (length) => Buffer.from(Array.from({ length }, () => int(0, 255))),
        word: (length) => Array.from({ length }, () => alphabet[int(0, alphabet.length - 1)]).join('')
    };
};
