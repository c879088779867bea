import type { Command } from 'commander';
import type { CliIo } from '../../io.js';
import { addUserAssign } from './assign.js';
import { addUserConnections } from './connections.js';
import { addUserCreate } from './create.js';
import { addUserList } from './list.js';
import { addUserRevokeOAuth } from './revoke-oauth.js';
import { addUserSetPassword } from './set-password.js';

// `arcasync user …`: an account's users, the CUITs a member sees, and the password and OAuth
// authorizations a user signs MCP clients in with.
export const registerUserCommands = (program: Command, io: CliIo): void => {

    const user = program.command('user').description('usuarios de una cuenta');
    for (const add of [addUserList, addUserCreate, addUserAssign, addUserSetPassword, addUserConnections, addUserRevokeOAuth]) {
        add(user, io);
    }
};
