// Fast path (MySQL): the lookups of one event-loop turn share a statement. Earns it: each round
// trip cost ~100 µs of the API server's CPU in bench:api on MariaDB (218504e).
// Measure: npm run bench:api -- --db mysql (against 218504e^).

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
