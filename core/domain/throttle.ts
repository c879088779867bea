// Limits on attempts that cost the service work or could guess a secret, per subject over a
// fixed window (the MCP sign-in page and open client registration, docs/api.md, MCP).

export interface ThrottleRule {
    limit: number;
    windowSeconds: number;
}

export const throttleRules = {
    // Failed sign-ins of one email, from anywhere: a password guessed five times, then a wait.
    signInPerEmail: { limit: 5, windowSeconds: 15 * 60 },
    // Failed sign-ins from one client address, whatever the email (trying many accounts).
    signInPerAddress: { limit: 20, windowSeconds: 15 * 60 },
    // Invitation links tried from one client address (a link's token guessed), as sign-ins are.
    invitationPerAddress: { limit: 20, windowSeconds: 15 * 60 },
    // Dynamic client registrations from one client address.
    registrationPerAddress: { limit: 20, windowSeconds: 60 * 60 }
} satisfies Record<string, ThrottleRule>;

// Registered OAuth clients kept at most (OAUTH_MAX_CLIENTS raises it): open registration
// must not fill the database.
export const defaultMaxOAuthClients = 1000;

// A registration that nobody has authorized yet lives a week; the first grant keeps the client
// for good. At the cap, the oldest such registration makes room for a new one, so a flood of
// registrations (20 an hour from each of many addresses) can neither fill the database nor
// close registration: only clients people authorized count against the cap for good.
export const unauthorizedClientLifetimeMs = 7 * 24 * 60 * 60 * 1000;

export interface ThrottleWindow {
    start: number;              // Unix seconds
    retryAfterSeconds: number;  // until the next window
}

export const throttleWindowAt = (now: Date, rule: ThrottleRule): ThrottleWindow => {

    const seconds = Math.floor(now.getTime() / 1000);
    const start = seconds - (seconds % rule.windowSeconds);
    return { start, retryAfterSeconds: Math.max(1, start + rule.windowSeconds - seconds) };
};
