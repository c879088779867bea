// One read timed as the benches report it: `requests` GETs one after another after a warm-up,
// their median and slowest, and the total the page reports (a failed answer stops the bench).

export interface Timing {
    median: number;
    max: number;
    total: number;
}

export const timedGet = async (url: string, token: string, requests: number): Promise<Timing> => {

    const times: number[] = [];
    let total = 0;
    for (let i = 0; i <= requests; i++) {
        const started = process.hrtime.bigint();
        const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        const body = await response.json() as { pagination?: { total: number } };
        if (!response.ok) {
            throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
        }

        total = body.pagination!.total;
        if (i > 0) {
            times.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
    }

    times.sort((a, b) => a - b);
    return { median: times[Math.floor(times.length / 2)]!, max: times.at(-1)!, total };
};

// `label` padded to `width`, then the median, the slowest and the total.
export const timingLine = (label: string, width: number, timing: Timing): string => `${label.padEnd(width)} ${`${timing.median.toFixed(1)} ms`.padStart(9)} ${
    `${timing.max.toFixed(1)} ms`.padStart(9)} ${String(timing.total).padStart(7)}\n`;
