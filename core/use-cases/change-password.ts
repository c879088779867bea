import { invalid } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import type { Ports } from '../ports/index.js';
import { signIn } from './sign-in.js';
import { setPassword } from './staff/set-password.js';

// A user changes their own password (the panel's account page): the current password is
// checked as a sign-in is, under the same throttle (a stolen session cannot guess it faster
// than the sign-in page allows), and the new one follows staff's rule. Like a password staff
// set, it ends everything the old one authorized: every session and OAuth grant of the user.
export const changePassword = async (
    deps: Pick<Ports, 'users' | 'userCredentials' | 'throttles' | 'clock' | 'oauthStore'>,
    input: { userId: number; current: string; next: string; repeated: string; address?: string | undefined }
): Promise<void> => {

    const user = await deps.users.findById(input.userId);
    if (!user) {
        throw invalid([messages.password.wrongCurrent]);
    }

    // Checked before the current password, so a mistyped new one costs no attempt.
    if (input.next !== input.repeated) {
        throw invalid([messages.password.mismatch]);
    }

    const checked = await signIn(deps, { email: user.email, password: input.current, address: input.address });
    if (!checked || checked.id !== user.id) {
        throw invalid([messages.password.wrongCurrent]);
    }

    if (input.next === input.current) {
        throw invalid([messages.password.unchanged]);
    }

    await setPassword(deps, { userId: user.id, password: input.next });
};
