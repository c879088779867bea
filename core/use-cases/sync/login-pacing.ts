import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FleetLimits } from '../../ports/fleet.js';

// Logins are spread out (docs/scaling.md): whether the authority limits logins per source
// address is not public, and a burst of them is what a firewall punishes. In one process, new
// logins start at least `gapMs` apart and at most `maxInFlight` run at once; across the fleet,
// at most `perMinute` start in any minute (the database counts them). A login is in flight
// from its first request until its session is confirmed or it fails.

export interface LoginPacing {
    gapMs: number;
    maxInFlight: number;
    perMinute: number;
}

export interface LoginPacer {
    // Waits for this login's turn; the returned function ends it (success or failure).
    start(): Promise<() => void>;
    readonly pacing: LoginPacing;
}

export const createLoginPacer = (pacing: LoginPacing, fleet: FleetLimits | null): LoginPacer => {

    let inFlight = 0;
    let lastStart = -Infinity;
    let turn: Promise<void> = Promise.resolve();
    const waiting: (() => void)[] = [];

    // Starts are handed out one at a time, in arrival order.
    const next = async (): Promise<void> => {

        while (inFlight >= Math.max(1, pacing.maxInFlight)) {
            await new Promise<void>((resolve) => waiting.push(resolve));
        }

        for (let wait = lastStart + pacing.gapMs - performance.now(); wait > 0; wait = lastStart + pacing.gapMs - performance.now()) {
            await sleep(wait);
        }

        for (let wait = fleet ? await fleet.takeLoginStart(pacing.perMinute) : 0; wait > 0; wait = await fleet!.takeLoginStart(pacing.perMinute)) {
            await sleep(Math.min(wait, 1_000));
        }

        lastStart = performance.now();
        inFlight++;
    };

    return {
        pacing,
        async start() {

            const previous = turn;
            const mine = previous.then(next);
            turn = mine.catch(() => undefined);
            await mine;
            let ended = false;
            return () => {

                if (!ended) {
                    ended = true;
                    inFlight--;
                    waiting.shift()?.();
                }
            };
        }
    };
};
