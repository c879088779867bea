import pino from 'pino';
import type { DestinationStream } from 'pino';

// Where a process's log goes by default: stderr, written off the request's path. pino's
// asynchronous destination (sonic-boom) issues one write system call per line when it is
// idle and measures its whole pending buffer at every line; here the lines of one turn of the
// event loop wait in a list and go to it as one chunk when the turn ends (bench:api: the
// request line's cost at LOG_LEVEL=info, ~15 µs of ~30, mostly gone). Nothing is lost at
// exit: whatever waits is written synchronously when the process exits (process.exit, the
// end of a command, SIGTERM's graceful stop), as pino does for its own destination.

export interface LogStream extends DestinationStream {
    flushSync(): void;
}

const internals = {
    stderr: null as LogStream | null,
    // sonic-boom writes one chunk at a time: a long one still being written when the process
    // exits would be cut. Its own chunks are at most 16 KiB.
    maxChunk: 16 * 1024,

    batched(fd: number): LogStream {

        const destination = pino.destination({ dest: fd, sync: false });
        let waiting: string[] = [];
        let scheduled = false;
        const handOver = () => {

            scheduled = false;
            let chunk = '';
            for (const line of waiting) {
                chunk += line;
                if (chunk.length >= internals.maxChunk) {
                    destination.write(chunk);
                    chunk = '';
                }
            }

            waiting = [];
            if (chunk) {
                destination.write(chunk);
            }
        };

        const stream: LogStream = {
            write(line: string) {

                waiting.push(line);
                if (!scheduled) {
                    scheduled = true;
                    setImmediate(handOver);
                }
            },
            // At exit there is no next turn: the destination turns synchronous (its `sync`
            // option, read at each write), so the last chunk is written now and not handed to
            // a thread the exiting process would not wait for.
            flushSync() {

                (destination as unknown as { sync: boolean }).sync = true;
                handOver();
                destination.flushSync();
            }
        };

        process.once('exit', () => stream.flushSync());
        return stream;
    }
};

// One per process, whichever loggers write to it: their lines stay in the order written.
export const stderrLogStream = (): LogStream => {

    internals.stderr ??= internals.batched(2);
    return internals.stderr;
};
