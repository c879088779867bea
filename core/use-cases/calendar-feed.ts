import type { AgendaItem } from '../domain/agenda.js';
import { arcaDay } from '../domain/arca-day.js';
import { unauthenticated } from '../domain/errors.js';
import { addDays } from '../domain/months.js';
import { generateToken, hashToken, tokenHint } from '../domain/token.js';
import type { Ports } from '../ports/index.js';
import { agendaOf } from './agenda.js';
import { chargeRequest } from './charge-request.js';
import { requireUser } from './staff/staff-input.js';

// Each user's private iCalendar address of the agenda (docs/answers.md, Agenda), for calendar
// apps that cannot send a bearer token: the secret is in the address, shown once, stored as its
// SHA-256 digest like an API token (core/domain/token.ts). A user has one; making a new one
// revokes the old. Staff make and revoke it (`arcasync calendario`); the panel will.

// What a feed shows: from a month back (what just passed stays visible) to half a year ahead.
const feedDays = { before: 30, after: 180 } as const;

export const createCalendarFeed = async (deps: Pick<Ports, 'users' | 'calendarFeeds' | 'clock'>, userId: number): Promise<{ token: string }> => {

    await requireUser(deps, userId);
    const token = generateToken();
    await deps.calendarFeeds.replace({ userId, tokenHash: hashToken(token), hint: tokenHint(token), createdAt: deps.clock.now().getTime() });
    return { token };
};

export const revokeCalendarFeed = async (deps: Pick<Ports, 'users' | 'calendarFeeds'>, userId: number): Promise<{ revoked: boolean }> => {

    await requireUser(deps, userId);
    return { revoked: await deps.calendarFeeds.revoke(userId) };
};

// The agenda behind a feed's secret, as its user sees it now: the same visibility, subscription
// and limits as the API (a feed read counts as a request). An unknown secret is a 401.
export const readCalendarFeed = async (
    deps: Pick<Ports, 'users' | 'calendarFeeds' | 'answers' | 'holidays' | 'rateLimitCounter' | 'rateLimits' | 'clock'>,
    token: string
): Promise<AgendaItem[]> => {

    const userId = await deps.calendarFeeds.findUserId(hashToken(token));
    const user = userId === null ? null : await deps.users.findPrincipal(userId);
    if (!user) {
        throw unauthenticated();
    }

    const principal = await chargeRequest(deps, user);
    const today = arcaDay(deps.clock.now().getTime());
    return agendaOf(deps, principal, { desde: addDays(today, -feedDays.before), hasta: addDays(today, feedDays.after) });
};
