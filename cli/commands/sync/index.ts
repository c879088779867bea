import type { Command } from 'commander';
import type { CliIo } from '../../io.js';
import { addResync } from './resync.js';
import { addSyncStatus } from './status.js';
import { registerSyncCommand } from './sync.js';
import { addSyncUnblock } from './unblock.js';
import { addSyncWorker } from './worker.js';

// The synchronization commands (README.md): `sync` (cron), `sync worker` (long-running),
// `sync status`, `sync unblock`, `resync`. The work happens in app/worker.ts; these commands
// parse options and show progress and results.
export const registerSyncCommands = (program: Command, io: CliIo): void => {

    const sync = registerSyncCommand(program, io);
    for (const add of [addSyncWorker, addSyncStatus, addSyncUnblock]) {
        add(sync, io);
    }

    addResync(program, io);
};
