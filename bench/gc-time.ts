import { PerformanceObserver } from 'node:perf_hooks';

// How long V8's collections have stopped this process's main thread so far (ms), for the
// bench to print GC time per request beside CPU per request: the same code can cost more
// CPU in one process than another because of how its heap grows, not what it runs. The read
// thread of SQLite (adapters/knex/fast/sqlite-reader.ts) has a heap of its own, not counted here.

const internals = { ms: 0 };

new PerformanceObserver((list) => {

    for (const entry of list.getEntries()) {
        internals.ms += entry.duration;
    }
}).observe({ entryTypes: ['gc'] });

export const gcMsSoFar = (): number => internals.ms;
