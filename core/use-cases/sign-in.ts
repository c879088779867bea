import { normalizeEmail } from '../domain/email.js';
import { messages } from '../domain/messages.js';
import { unknownPasswordHash, verifyPassword } from '../domain/password.js';
import { throttleRules } from '../domain/throttle.js';
import { hashToken } from '../domain/token.js';
import type { Ports, UserRecord } from '../ports/index.js';
import { countAttempt } from './count-attempt.js';

// A person signing in with email and password (the OAuth authorization page). Unknown email,
// user without password and wrong password are one and the same failure: null, after the
// same scrypt work. Attempts are counted per email and per client address before the password
// is looked at, so concurrent guesses cannot pass the limit, and while either is full even the
// right password is refused (429); a sign-in that succeeds gives its attempts back.
export const signIn = async (
    deps: Pick<Ports, 'users' | 'userCredentials' | 'throttles' | 'clock'>,
    input: { email: string; password: string; address?: string | undefined }
): Promise<UserRecord | null> => {

    // The throttle's key and the lookup name one and the same address (core/domain/email.ts).
    const email = normalizeEmail(input.email);
    // The address first: once it is throttled, guessing new emails adds no counter rows. The
    // email as a digest: any length fits the counter's key, and the table names nobody.
    const subjects = [
        ...(input.address ? [{ rule: throttleRules.signInPerAddress, subject: `sign-in:address:${input.address}` }] : []),
        { rule: throttleRules.signInPerEmail, subject: `sign-in:email:${hashToken(email)}` }
    ];
    const counted: { subject: string; start: number }[] = [];
    for (const { rule, subject } of subjects) {
        const window = await countAttempt(deps, rule, subject, messages.signInThrottled);
        counted.push({ subject, start: window.start });
    }

    const user = await deps.users.findByEmail(email);
    const stored = user ? await deps.userCredentials.passwordHash(user.id) : null;
    const matches = await verifyPassword(input.password, stored ?? unknownPasswordHash);
    if (!user || !stored || !input.password || !matches) {
        return null;
    }

    await Promise.all(counted.map(({ subject, start }) => deps.throttles.giveBack(subject, start)));
    return user;
};
