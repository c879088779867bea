import type { TransportClock } from '../../adapters/authority/arca/http.js';

// Clocks for the arca adapter in tests. `shiftedClock`: real time moved to a given day (the
// simulated authority paces in real time). `virtualClock`: time moves only when someone
// sleeps, at once, and every sleep is recorded, so waits of minutes cost nothing.

export const shiftedClock = (iso: string): TransportClock => {

    const offset = Date.parse(iso) - Date.now();
    return {
        now: () => Date.now() + offset,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms))
    };
};

export interface VirtualClock extends TransportClock {
    sleeps: number[];
    advance(ms: number): void;
}

export const virtualClock = (iso: string): VirtualClock => {

    let now = Date.parse(iso);
    const clock: VirtualClock = {
        sleeps: [],
        now: () => now,
        sleep(ms) {

            clock.sleeps.push(ms);
            now += Math.max(0, ms);
            return new Promise((resolve) => setImmediate(resolve));
        },
        advance(ms) {

            now += ms;
        }
    };
    return clock;
};
