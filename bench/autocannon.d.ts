// The part of autocannon 8's API the bench uses (the package ships no types).
declare module 'autocannon' {
    interface Options {
        url: string;
        connections?: number;
        duration?: number;
        pipelining?: number;
        headers?: Record<string, string>;
        amount?: number;                      // this many requests in all, then stop (instead of duration)
        sampleInt?: number;                   // ms between its samples, when it also checks whether to stop
        requests?: { setupRequest?: (request: Request) => Request }[];
    }

    interface Request {
        method?: string;
        path?: string;
        headers?: Record<string, string>;
    }

    interface Histogram {
        average: number;
        mean: number;
        stddev: number;
        min: number;
        max: number;
        p50: number;
        p90: number;
        p99: number;
    }

    interface Result {
        requests: Histogram & { total: number; sent: number };
        latency: Histogram;
        throughput: Histogram;
        errors: number;
        timeouts: number;
        non2xx: number;
        '2xx': number;
        duration: number;
    }

    function autocannon(options: Options): Promise<Result>;
    export default autocannon;
}
