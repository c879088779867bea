#!/usr/bin/env node
import { processIo } from './io.js';
import { runCli } from './program.js';

// The `arcasync` binary: the command line of this process, ended with the command's exit code.

process.exit(await runCli(process.argv.slice(2), processIo()));
