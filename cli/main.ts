#!/usr/bin/env -S node --max-semi-space-size=4
import { processIo } from './io.js';
import { runCli } from './program.js';

// The `arcasync` binary: the command line of this process, ended with the command's exit code
// once what it wrote has left (a pipe takes 64 KiB at a time; exiting earlier cuts the rest).
//
// Node's flags are on the first line, where every way of starting the service finds them
// (the installed `arcasync`, npm's scripts, bench:api): a young generation of 4 MB
// semi-spaces instead of V8's 16. Under load a server's young generation grows to its
// maximum, in the main thread and in SQLite's read thread alike. With the smaller one,
// `bench:api`'s SQLite server peaked at 142–199 MB (median 177, six runs) instead of
// 199–233, at the same requests per second (a request's garbage dies young either way, so
// scavenges stay short), and a sync worker at 176–178 MB instead of 204–209, storing as fast.

const code = await runCli(process.argv.slice(2), processIo());
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
