import type { ClientRecord } from './client.js';
import type { Cuit } from './cuit.js';
import { forbidden } from './errors.js';
import type { RateLimitStatus } from './rate-limit.js';
import type { Timestamp } from './time.js';
import { messages } from './messages.js';

// Who sees what (docs/api.md, Access).

export const subscriptionStates = ['active', 'paused', 'ended', 'inactive'] as const;
export type SubscriptionState = typeof subscriptionStates[number];

export const roles = ['owner', 'member'] as const;
export type Role = typeof roles[number];

// Who is acting: the user behind a token, with the account flags read on every request so
// that a subscription fixed in the dashboard takes effect on the next request.
export interface Principal {
    readonly userId: number;
    readonly accountId: number;
    readonly role: Role;
    readonly writingEnabled: boolean;
    readonly subscription: SubscriptionState;
    // The account's data version (adapters/knex/data-versions.ts): what lists its CUITs is
    // kept between requests only while it is unchanged.
    readonly dataVersion: number;
    // Set once the request was counted (chargeRequest): the answer tells it to the client.
    readonly rateLimit?: RateLimitStatus;
    // The CUIT the request names, when it was looked up with the token: the client if this
    // user manages it (the rule of findVisibleClient), null if not. A request then asks the
    // database once for who is asking and about which CUIT (find-token-user.ts).
    readonly named?: { readonly cuit: Cuit; readonly client: ClientRecord | null };
    // The API token it was found by, and when that token was last recorded as used (ms; null:
    // never), for findTokenUser's throttled "last used". Absent for an OAuth grant's user.
    readonly apiToken?: { readonly id: number; readonly lastUsedAt: Timestamp | null };
}

// The subscription's 403s (docs/api.md, Errors), on every endpoint, each with its message: a
// paused subscription (the last payment failed) and one that ended or was never activated.
export const assertSubscriptionActive = (principal: Principal): void => {

    if (principal.subscription === 'paused') {
        throw forbidden(messages.subscriptionPaused);
    }

    if (principal.subscription !== 'active') {
        throw forbidden(messages.subscriptionInactive);
    }
};

export const assertWritingEnabled = (principal: Principal): void => {

    if (!principal.writingEnabled) {
        throw forbidden(messages.writingDisabled);
    }
};

// Where a client write comes from. Through the API it needs the account's API writing (SPEC 5,
// rule 5: the enterprise feature staff enable); from the panel, SPEC's dashboard, it does not:
// "CUITs created by API count the same as those created from the dashboard". Every other rule
// is the same for both.
export type WriteChannel = 'api' | 'panel';

export const assertMayWrite = (principal: Principal, channel: WriteChannel): void => {

    if (channel === 'api') {
        assertWritingEnabled(principal);
    }
};

// What spans the whole account, its tags and its team (invitations, roles, assignments,
// removals), only its owners manage: a member sees only the CUITs assigned to it, and a tag or
// a teammate reaches the others. Staff, through the CLI, act as the operator, not as a user.
export const mayManageAccount = (principal: Pick<Principal, 'role'>): boolean => principal.role === 'owner';

export const assertMayManageAccount = (principal: Pick<Principal, 'role'>): void => {

    if (!mayManageAccount(principal)) {
        throw forbidden(messages.team.ownersOnly);
    }
};

// An account always keeps an owner: someone must be able to manage its team, tags and
// subscription. Whether the account's users (`users`), once `userId` takes `role` (null: the
// user is removed), still have one.
export const keepsAnOwner = (users: readonly { id: number; role: Role }[], change: { userId: number; role: Role | null }): boolean => users.some(
    (user) => (user.id === change.userId ? change.role : user.role) === 'owner'
);
