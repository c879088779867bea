import { verifyPassword } from '../domain/password.js';
import type { UserRecord } from '../ports/index.js';
import type { Ports } from '../ports/index.js';

// A person signing in with email and password (the OAuth authorization page). Unknown email,
// user without password and wrong password are one and the same failure: null.
export const signIn = async (deps: Pick<Ports, 'users' | 'userCredentials'>, input: { email: string; password: string }): Promise<UserRecord | null> => {

    const user = await deps.users.findByEmail(input.email.trim().toLowerCase());
    const stored = user ? await deps.userCredentials.passwordHash(user.id) : null;
    if (!user || !stored || !input.password) {
        return null;
    }

    return await verifyPassword(input.password, stored) ? user : null;
};
