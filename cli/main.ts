#!/usr/bin/env node
import { processIo } from './io.js';
import { runCli } from './program.js';

// The `arcasync` binary: the command line of this process, ended with the command's exit code
// once what it wrote has left (a pipe takes 64 KiB at a time; exiting earlier cuts the rest).

const code = await runCli(process.argv.slice(2), processIo());
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
