// Attempts counted per subject (an email, a client address…) over a fixed window, shared by
// every server process: brute force is slowed down whichever process it reaches.
export interface ThrottleCounter {
    // Counts one attempt in the window starting at `windowStart` (Unix seconds), unless `limit`
    // are already counted there: then nothing is counted and the answer is false.
    tryCount(subject: string, windowStart: number, limit: number): Promise<boolean>;
    // Gives one counted attempt back (one that turned out not to count: a right password).
    giveBack(subject: string, windowStart: number): Promise<void>;
}
