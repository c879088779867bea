import type { Command } from 'commander';
import type { CliIo } from '../../io.js';
import { addUserAssign } from './assign.js';
import { addUserCreate } from './create.js';
import { addUserInvite } from './invite.js';
import { addUserLink } from './link.js';
import { addUserList } from './list.js';
import { addUserRemove } from './remove.js';
import { addUserRevokeOAuth } from './revoke-oauth.js';
import { addUserRole } from './role.js';
import { addUserSetPassword } from './set-password.js';
import { addUserUnassign } from './unassign.js';

// `arcasync user …`: an account's users (invited with a one-time link, their roles, removed),
// the CUITs a member sees, and the password and OAuth authorizations a user signs in with.
export const registerUserCommands = (program: Command, io: CliIo): void => {

    const user = program.command('user').description('usuarios de una cuenta');
    for (const add of [
        addUserList, addUserCreate, addUserInvite, addUserLink, addUserRole,
        addUserAssign, addUserUnassign, addUserSetPassword, addUserRevokeOAuth, addUserRemove
    ]) {
        add(user, io);
    }
};
