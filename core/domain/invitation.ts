import { randomBytes } from 'node:crypto';

// The one-time link an owner hands a new user to set their password (the panel's team page,
// `arcasync user invite`): 32 random bytes, shown once, stored only as a digest (hashToken, as
// API tokens are); it works for a week and once.

export const invitationLifetimeMs = 7 * 24 * 60 * 60 * 1000;

export const generateInvitationToken = (): string => randomBytes(32).toString('base64url');

// What a link's token looks like: anything else is refused before a lookup.
export const isInvitationTokenShape = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

export interface InvitationState {
    expiresAt: number;
    usedAt: number | null;
}

export const isInvitationUsable = (invitation: InvitationState, now: number): boolean => invitation.usedAt === null && now < invitation.expiresAt;
