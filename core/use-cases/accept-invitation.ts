import { DomainError, conflict, invalid } from '../domain/errors.js';
import { isInvitationTokenShape, isInvitationUsable } from '../domain/invitation.js';
import { messages } from '../domain/messages.js';
import { throttleRules } from '../domain/throttle.js';
import { hashToken } from '../domain/token.js';
import type { InvitationRecord, Ports } from '../ports/index.js';
import { countAttempt } from './count-attempt.js';
import { assertPasswordRules, setPassword } from './staff/set-password.js';

type LinkDeps = Pick<Ports, 'invitations' | 'users' | 'throttles' | 'clock'>;

const internals = {
    unusable: (): DomainError => new DomainError('not_found', messages.team.invitationUnusable),

    // The link a token names while it can still be used. Every lookup counts against the client
    // address, as a sign-in does (a token guessed is a password guessed); a real link gives its
    // attempt back. Unknown, used and expired links fail alike: one message, one status.
    async usable(deps: LinkDeps, token: string, address: string | undefined): Promise<InvitationRecord & { email: string }> {

        const subject = `invitation:address:${address ?? 'unknown'}`;
        const window = await countAttempt(deps, throttleRules.invitationPerAddress, subject, messages.team.invitationThrottled);
        const found = isInvitationTokenShape(token) ? await deps.invitations.find(hashToken(token)) : null;
        const user = found && isInvitationUsable(found, deps.clock.now().getTime()) ? await deps.users.findById(found.userId) : null;
        if (!found || !user) {
            throw internals.unusable();
        }

        await deps.throttles.giveBack(subject, window.start);
        // Invited with an address that signs in to another account (the owner who invited could
        // not be told): said here, to the address's owner, before any password is asked.
        const holder = await deps.users.findByEmail(user.email);
        if (holder && holder.id !== user.id) {
            throw conflict(messages.team.emailInUse);
        }

        return { ...found, email: user.email };
    }
};

// The link's page, before its form is sent: whose password it sets.
export const findInvitation = async (deps: LinkDeps, input: { token: string; address?: string | undefined }): Promise<{ email: string }> => {

    const { email } = await internals.usable(deps, input.token, input.address);
    return { email };
};

// The invited user sets their password through the link, under the rules of every new password
// (set-password.ts); the link is then spent. A password refused leaves the link as it was.
export const acceptInvitation = async (
    deps: LinkDeps & Pick<Ports, 'userCredentials' | 'oauthStore'>,
    input: { token: string; password: string; repeated: string; address?: string | undefined }
): Promise<{ userId: number; email: string }> => {

    const invitation = await internals.usable(deps, input.token, input.address);
    if (input.password !== input.repeated) {
        throw invalid([messages.password.mismatch]);
    }

    assertPasswordRules(input.password);
    if (!await deps.invitations.use(invitation.id, deps.clock.now().getTime())) {
        throw internals.unusable();
    }

    await setPassword(deps, { userId: invitation.userId, password: input.password });
    return { userId: invitation.userId, email: invitation.email };
};
