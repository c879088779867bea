// Fast path (MySQL): the lookups of one event-loop turn share a statement. Earns it (2026-11-28,
// d097129, npm run bench:api -- --db mysql --workload endpoints --read-cache-mb 0, 3 rounds with
// and without, A B, machine loaded 10-14 on 2 cores): without, 3.5 -> 4.1 statements a
// request, req/s 313 -> 225 (lists), 490 -> 310 (emitidos), 675 -> 492 (sct), CPU 1,151 ->
// 1,549 / 866 -> 1,119 / 755 -> 745 µs a request (medians; the first two higher in 2 pairs of
// 3). Earlier: ~100 µs of CPU per round trip (218504e).

import DataLoader from 'dataloader';

// On MySQL every statement is a round trip to another process, and under load the round
// trips, not the queries, are what the API server spends its time on. Lookups that requests
// make in the same turn of the event loop share one statement: DataLoader collects them until
// the turn ends (setImmediate) and the batch function answers all of them in order. Only a
// lookup made before the statement is sent joins it, so no request is answered from a read
// older than itself; nothing is cached (cache: false).

export type Batched<K, V> = (key: K) => Promise<V>;

export const batched = <K, V>(answer: (keys: readonly K[]) => Promise<V[]>): Batched<K, V> => {

    const loader = new DataLoader<K, V>(answer, {
        cache: false,
        maxBatchSize: 100,
        batchScheduleFn: (callback) => setImmediate(callback)
    });

    return (key) => loader.load(key);
};
