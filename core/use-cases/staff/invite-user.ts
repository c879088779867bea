import { conflict } from '../../domain/errors.js';
import { generateInvitationToken, invitationLifetimeMs } from '../../domain/invitation.js';
import { messages } from '../../domain/messages.js';
import { hashToken } from '../../domain/token.js';
import type { Ports } from '../../ports/index.js';
import { createUser } from './create-user.js';
import type { Acting, Manager } from './staff-input.js';
import { actedOnAccount, managedAccount, requireUser } from './staff-input.js';

type InviteDeps = Pick<Ports, 'accounts' | 'users' | 'userCredentials' | 'invitations' | 'clock'>;

const internals = {
    // The link's token goes back once, to be handed on (no e-mail is sent); only its digest stays.
    async issue(deps: Pick<Ports, 'invitations' | 'clock'>, userId: number) {

        const token = generateInvitationToken();
        const createdAt = deps.clock.now().getTime();
        const expiresAt = createdAt + invitationLifetimeMs;
        await deps.invitations.create({ userId, tokenHash: hashToken(token), createdAt, expiresAt });
        return { token, expiresAt };
    }
};

// A new user of the account, with no password to sign in with until they set one through the
// link (acceptInvitation).
export const inviteUser = async (deps: InviteDeps, input: Acting & { email: string; role?: string | undefined }) => {

    const { id } = await createUser(deps, { accountId: actedOnAccount(input), email: input.email, role: input.role ?? 'member' });
    return { id, ...await internals.issue(deps, id) };
};

// Another link for a user who has not set a password yet (theirs expired or got lost); the
// earlier one ends. A user with a password changes it themselves or through staff.
export const renewInvitation = async (deps: InviteDeps, input: { userId: number; by?: Manager | undefined }) => {

    const user = await requireUser(deps, input.userId, managedAccount(input.by));
    if (await deps.userCredentials.passwordHash(user.id) !== null) {
        throw conflict(messages.team.notPending);
    }

    return { id: user.id, ...await internals.issue(deps, user.id) };
};
