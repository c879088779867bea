import type { Command } from 'commander';
import type { CliIo } from '../../io.js';
import { addAuthorityProbe } from './probe.js';
import { addAuthoritySimulate } from './simulate.js';

// `arcasync authority …`: the tax authority (ARCA), probed with a stored key or simulated.
export const registerAuthorityCommands = (program: Command, io: CliIo): void => {

    const authority = program.command('authority').description('la autoridad fiscal (ARCA)');
    for (const add of [addAuthorityProbe, addAuthoritySimulate]) {
        add(authority, io);
    }
};
