// What a command may touch of its process, handed in so the whole CLI also runs inside
// another process (tests, runCli): the environment, the working directory, the three
// streams, and the request to stop (SIGTERM/SIGINT in a process of its own).

interface CliOutputStream {
    write(text: string): unknown;
    isTTY?: boolean;
    columns?: number;
}

interface CliInputStream extends AsyncIterable<Buffer | string> {
    isTTY?: boolean;
    setRawMode?(mode: boolean): unknown;
    // Node's own listener type, so that process.stdin is one and a listener may name its chunk.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    on(event: string, listener: (...args: any[]) => void): unknown;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    off(event: string, listener: (...args: any[]) => void): unknown;
    resume(): unknown;
    pause(): unknown;
}

export interface CliIo {
    env: NodeJS.ProcessEnv;
    cwd: string;
    stdin: CliInputStream;
    stdout: CliOutputStream;
    stderr: CliOutputStream;
    // Long-running commands end when asked to stop; returns the unsubscribe.
    onStop(listener: () => void): () => void;
}

export const processIo = (): CliIo => {

    // A reader that stops early (`arcasync openapi | head -1`) closes the pipe: the rest of the
    // output has nowhere to go, which is no failure of the command.
    for (const stream of [process.stdout, process.stderr]) {
        stream.on('error', (err: NodeJS.ErrnoException) => {

            if (err.code !== 'EPIPE') {
                throw err;
            }

            process.exit(0);
        });
    }

    return {
        env: process.env,
        cwd: process.cwd(),
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: process.stderr,
        onStop(listener) {

            process.once('SIGTERM', listener);
            process.once('SIGINT', listener);
            return () => {

                process.off('SIGTERM', listener);
                process.off('SIGINT', listener);
            };
        }
    };
};

// Resolves at the first stop request.
export const stopRequested = (io: CliIo): Promise<void> => new Promise((resolve) => {

    const off = io.onStop(() => {

        off();
        resolve();
    });
});
