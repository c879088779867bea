import { randomBytes } from 'node:crypto';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { Principal } from '../../core/domain/access.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { hashToken } from '../../core/domain/token.js';
import type { Ports } from '../../core/ports/index.js';
import { sessionUserOf } from '../../core/use-cases/principal-of-user.js';

// The panel's sessions live on the server: the cookie holds a random token and the store keeps
// only its digest, beside the user and when the session started and was last used. So a
// session ends for good at sign-out, at its idle or absolute timeout (the store's expiry), and
// when staff set the user's password (set-password.ts revokes every entry indexed with the
// user, as it does the OAuth grants). The entries go in the OAuth store, the service's table of
// expiring server-side entries, under their own kind.

export const sessionLimits = {
    idleMs: 30 * 60 * 1000,
    absoluteMs: 12 * 60 * 60 * 1000,
    // A session's last use is written at most this often (each write extends the idle timeout).
    touchMs: 60 * 1000
};

interface SessionEntry {
    userId: number;
    createdAt: number;
    seenAt: number;
}

export interface PanelSession {
    principal: Principal;
    email: string;
}

const internals = {
    kind: 'PanelSession',

    expiry: (entry: SessionEntry): number => Math.min(entry.createdAt + sessionLimits.absoluteMs, entry.seenAt + sessionLimits.idleMs),

    isEntry: (payload: Record<string, unknown>): payload is Record<string, unknown> & SessionEntry => typeof payload.userId === 'number'
        && typeof payload.createdAt === 'number' && typeof payload.seenAt === 'number'
};

export interface SessionCookie {
    name: string;
    secure: boolean;
}

// `__Host-` (Secure, no Domain, Path=/) when the service is published over https: no
// subdomain or plain-http page can set or overwrite it.
export const sessionCookie = (publicUrl: string | undefined): SessionCookie => {

    const secure = publicUrl?.startsWith('https:') ?? false;
    return { name: secure ? '__Host-arcasync-panel' : 'arcasync-panel', secure };
};

export const registerSessionCookie = (server: Server, cookie: SessionCookie): void => {

    server.state(cookie.name, {
        ttl: null,
        isSecure: cookie.secure,
        isHttpOnly: true,
        isSameSite: 'Lax',
        path: '/',
        encoding: 'none',
        strictHeader: true,
        ignoreErrors: true,
        clearInvalid: true
    });
};

export const sessionStore = (deps: Pick<Ports, 'oauthStore' | 'users' | 'clock'>, cookie: SessionCookie) => ({

    // A new session, always under a new token (never the one the browser came with).
    async start(h: ResponseToolkit, userId: number): Promise<void> {

        const token = randomBytes(32).toString('base64url');
        const now = deps.clock.now().getTime();
        const entry: SessionEntry = { userId, createdAt: now, seenAt: now };
        await deps.oauthStore.upsert(internals.kind, hashToken(token), { ...entry }, internals.expiry(entry), { accountId: String(userId) });
        h.state(cookie.name, token);
    },

    // The session the request's cookie names, refreshed; null when there is none or it ended.
    // A page about one CUIT names it: its principal then carries that client (`named`).
    async current(request: Request, cuit?: Cuit): Promise<PanelSession | null> {

        const token = request.state[cookie.name] as unknown;
        if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
            return null;
        }

        const id = hashToken(token);
        const now = deps.clock.now().getTime();
        const found = await deps.oauthStore.find(internals.kind, id, now);
        if (!found || !internals.isEntry(found.payload) || internals.expiry(found.payload) <= now) {
            return null;
        }

        const entry: SessionEntry = { userId: found.payload.userId, createdAt: found.payload.createdAt, seenAt: found.payload.seenAt };
        const user = await sessionUserOf(deps, entry.userId, cuit);
        if (!user) {
            await deps.oauthStore.destroy(internals.kind, id);
            return null;
        }

        if (now - entry.seenAt >= sessionLimits.touchMs) {
            const touched = { ...entry, seenAt: now };
            await deps.oauthStore.upsert(internals.kind, id, { ...touched }, internals.expiry(touched), { accountId: String(entry.userId) });
        }

        return { principal: user.principal, email: user.email };
    },

    async end(request: Request, h: ResponseToolkit): Promise<void> {

        const token = request.state[cookie.name] as unknown;
        if (typeof token === 'string' && token) {
            await deps.oauthStore.destroy(internals.kind, hashToken(token));
        }

        h.unstate(cookie.name);
    }
});

export type SessionStore = ReturnType<typeof sessionStore>;
