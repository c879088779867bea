import type { IncomingMessage, ServerResponse } from 'node:http';
import { messagePage } from './pages.js';
import { html, redirect } from './reply.js';
import type { SimulatedState } from './state.js';

// A service's entry: the token/sign form the portal handed out opens a session of that
// service, set as a cookie, and sends the browser to the service's first page.

export const denied = (res: ServerResponse): void => html(res, messagePage('Acceso denegado', 'Token o firma inválidos.'), 403);

export const enterService = async <S>(state: SimulatedState, req: IncomingMessage, res: ServerResponse, entry: {
    service: string;
    sessions: Map<string, S>;
    session: (login: string) => S;
    location: string;
    cookie: (id: string) => string;
}): Promise<void> => {

    const login = await state.entryLogin(req, entry.service);
    if (!login) {
        return denied(res);
    }

    const id = state.token();
    state.remember(entry.sessions, id, entry.session(login));
    return redirect(res, entry.location, { 'set-cookie': entry.cookie(id) });
};
