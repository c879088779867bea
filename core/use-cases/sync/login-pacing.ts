import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FleetLimits, FleetLoginTurn } from '../../ports/fleet.js';

// Logins are spread out (docs/scaling.md): whether the authority limits logins per source
// address is not public, and a burst of them is what a firewall punishes. Across the fleet (the
// database hands out the turns), new logins start at least `gapMs` apart, counted from the
// authority's answer to the previous login's first request, and at most `perMinute` start in
// any minute; in one process, at most `maxInFlight` run at once. A login is in flight from its
// turn until its session is confirmed or it fails.

export interface LoginPacing {
    gapMs: number;
    maxInFlight: number;
    perMinute: number;
}

// One login's place in the pacing: `started` once its first request has reached the
// authority (the gap is counted from there, not from when the turn was given: the request may
// still wait for a slot of the transport, the fleet's host gate or a busy event loop), `end`
// when it succeeded or failed. The next login's turn waits for one of the two.
interface LoginTurn {
    started(): void;
    end(): void;
}

export interface LoginPacer {
    // Waits for this login's turn.
    start(): Promise<LoginTurn>;
    readonly pacing: LoginPacing;
}

export const createLoginPacer = (pacing: LoginPacing, fleet: FleetLimits | null): LoginPacer => {

    let inFlight = 0;
    let lastStart = -Infinity;
    let turn: Promise<void> = Promise.resolve();
    const waiting: (() => void)[] = [];

    // Starts are handed out one at a time, in arrival order; the fleet's turn last, as it
    // holds every other process's logins until this one's first answer.
    const next = async (): Promise<FleetLoginTurn | null> => {

        while (inFlight >= Math.max(1, pacing.maxInFlight)) {
            await new Promise<void>((resolve) => waiting.push(resolve));
        }

        for (let wait = lastStart + pacing.gapMs - performance.now(); wait > 0; wait = lastStart + pacing.gapMs - performance.now()) {
            await sleep(wait);
        }

        for (let wait = fleet ? await fleet.takeLoginStart(pacing.perMinute) : 0; wait > 0; wait = await fleet!.takeLoginStart(pacing.perMinute)) {
            await sleep(Math.min(wait, 1_000));
        }

        const fleetTurn = fleet && pacing.gapMs > 0 ? await fleet.takeLoginTurn(pacing.gapMs) : null;
        lastStart = performance.now();
        inFlight++;
        return fleetTurn;
    };

    return {
        pacing,
        async start() {

            let left!: () => void;
            const gone = new Promise<void>((resolve) => {

                left = resolve;
            });
            const mine = turn.then(next);
            turn = mine.then(() => gone, () => undefined);
            const fleetTurn = await mine;
            // This process's next turn waits until the fleet was told (the write never fails).
            const leave = (told: Promise<void> | undefined) => void (told ?? Promise.resolve()).then(left, left);
            let started = false;
            let ended = false;
            return {
                started() {

                    if (!started) {
                        started = true;
                        lastStart = performance.now();
                        leave(fleetTurn?.answered());
                    }
                },
                end() {

                    if (!started) {
                        started = true;
                        leave(fleetTurn?.ended());
                    }

                    if (!ended) {
                        ended = true;
                        inFlight--;
                        waiting.shift()?.();
                    }
                }
            };
        }
    };
};
