import type { Request, ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { isDomainError } from '../../core/domain/errors.js';
import { isInvitationTokenShape } from '../../core/domain/invitation.js';
import { minPasswordLength } from '../../core/domain/password.js';
import { acceptInvitation, findInvitation } from '../../core/use-cases/accept-invitation.js';
import { assignClientsToUser, unassignClientsFromUser } from '../../core/use-cases/staff/assign-client-to-user.js';
import { changeUserRole } from '../../core/use-cases/staff/change-user-role.js';
import { inviteUser, renewInvitation } from '../../core/use-cases/staff/invite-user.js';
import { listTeam, teamMember } from '../../core/use-cases/staff/list-team.js';
import { removeUser } from '../../core/use-cases/staff/remove-user.js';
import { clientAddress } from '../http/client-address.js';
import { formatMoment } from './client-format.js';
import { estudioViews } from './estudio-views.js';
import type { PanelContext } from './respond.js';
import { errorPage, formField, formPayload, formValues, panelPaths, redirectTo, renderPage, renderTemplate, withOwnerSession } from './respond.js';
import type { PanelSession } from './session.js';
import { teamTexts } from './team-texts.js';
import { teamViews } from './team-views.js';
import { panelTexts } from './texts.js';

// El equipo (/panel/equipo): the account's users, invited with a one-time link, their roles,
// the CUITs assigned to members, and their removal, through the staff use cases the CLI's
// `user` commands run (the account keeps an owner: the core's rule). Owners only (the core's
// rule too, access.ts): a member gets the 403 page on every one of these pages and forms. Another account's user id is the
// one 404 page. The link's own page (/panel/invitacion/{token}) needs no session.

type UserAct = (request: Request, h: ResponseToolkit, session: PanelSession, userId: number) => Promise<ResponseObject>;

const internals = {
    e: teamTexts,
    path: '/panel/equipo',
    invitation: '/panel/invitacion',
    // How many CUITs one form may carry: the user's page lists up to 1000.
    maxSelection: 1000,
    // The link's refusals, told on its own page.
    statusOf: { conflict: 409, not_found: 404, rate_limited: 429 } as Record<string, number>,

    userId: (value: unknown): number | null => (typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null),

    // The link as the owner passes it on, shown once on the answer that made it.
    created: (context: PanelContext, request: Request, link: { token: string; expiresAt: number }, notice: string) => ({
        notice,
        link: `${context.baseUrl(request)}${internals.invitation}/${link.token}`,
        expires: internals.e.linkExpires(formatMoment(new Date(link.expiresAt).toISOString()))
    }),

    async teamPage(h: ResponseToolkit, context: PanelContext, request: Request, session: PanelSession, values: Record<string, unknown>) {

        const { users } = await listTeam(context.deps, { by: session.principal });
        return renderTemplate(h, context, request, teamViews.team, 'team', {
            title: internals.e.teamTitle,
            e: internals.e,
            role: 'member',
            users: users.map((user) => ({
                email: user.email,
                roleLabel: internals.e.roles[user.role],
                cuits: user.role === 'owner' ? internals.e.allCuits : String(user.assignedCount),
                state: user.pending ? internals.e.pending : internals.e.active,
                href: `${internals.path}/${user.id}`,
                manageLabel: internals.e.manageLabel(user.email)
            })),
            ...values
        }, session);
    },

    async memberPage(h: ResponseToolkit, context: PanelContext, request: Request, session: PanelSession, userId: number, values: Record<string, unknown>) {

        const found = await teamMember(context.deps, session.principal, { userId });
        return renderTemplate(h, context, request, teamViews.member, 'team', {
            title: internals.e.userTitle(found.user.email),
            e: internals.e,
            base: `${internals.path}/${userId}`,
            ...found,
            ...values
        }, session);
    },

    // A route on one user of the account, `{id}` parsed (or the form's field `idOf` names): a
    // malformed id, a user gone and another account's get the one 404 page (the use cases answer
    // them alike; looked up first so that a refusal of the form itself, a CUIT not in the
    // account, shows on the user's page).
    onUser(context: PanelContext, act: UserAct, withPage = true, idOf = (request: Request): unknown => request.params.id) {

        const id = (request: Request): number | null => internals.userId(idOf(request));
        return withOwnerSession(context, async (request, h, session) => {

            const userId = id(request);
            const user = userId === null ? null : await context.deps.users.findById(userId);
            if (userId === null || user?.accountId !== session.principal.accountId) {
                return errorPage(h, context, request, session, panelTexts.notFound, 404);
            }

            return act(request, h, session, userId);
        }, withPage ? (request, h, session, error) => internals.memberPage(h, context, request, session, id(request)!, { error }) : undefined);
    },

    // The form's CUITs (`cuit`, one typed or the checked ones) assigned to the user or, with
    // `accion=quitar`, taken off, all or none; false when it names none.
    async assign(context: PanelContext, request: Request, session: PanelSession, userId: number): Promise<boolean> {

        const payload = request.payload as Record<string, unknown> | null;
        const cuits = formValues(payload, 'cuit', internals.maxSelection);
        if (!cuits.length) {
            return false;
        }

        const change = formField(payload, 'accion') === 'quitar' ? unassignClientsFromUser : assignClientsToUser;
        await change(context.deps, { userId, cuits, by: session.principal });
        return true;
    },

    // The invitation page: whose password the link sets, or the one page for every link that
    // cannot be used (unknown, used, expired) and for a client address throttled.
    async invitationPage(h: ResponseToolkit, context: PanelContext, request: Request, values: Record<string, unknown>) {

        const token = String(request.params.token);
        const { email } = await findInvitation(context.deps, { token, address: clientAddress(request, context.trustProxy) });
        return renderTemplate(h, context, request, teamViews.invitation, 'invitation', {
            title: internals.e.invitationTitle,
            e: internals.e,
            email,
            rules: internals.e.invitationRules(minPasswordLength),
            action: `${internals.invitation}/${isInvitationTokenShape(token) ? token : ''}`,
            ...values
        }, null);
    },

    // The address already signing in elsewhere (a 409) is told to the person who holds it.
    refusedLink(h: ResponseToolkit, context: PanelContext, request: Request, err: unknown): ResponseObject {

        if (isDomainError(err) && (err.kind === 'not_found' || err.kind === 'rate_limited' || err.kind === 'conflict')) {
            const title = err.kind === 'conflict' ? internals.e.invitationEmailInUseTitle : internals.e.invitationUnusableTitle;
            const page = renderPage(h, context, request, 'error', { title, message: err.message }, null);
            return page.code(internals.statusOf[err.kind]!);
        }

        throw err;
    }
};

export const teamRoutes = (context: PanelContext): ServerRoute[] => [
    {
        method: 'GET',
        path: internals.path,
        options: { auth: false },
        handler: withOwnerSession(context, (request, h, session) => internals.teamPage(h, context, request, session, {
            notice: request.query.hecho === 'eliminado' ? internals.e.removed : null
        }))
    },
    {
        method: 'POST',
        path: internals.path,
        options: { auth: false, payload: formPayload },
        handler: withOwnerSession(context, async (request, h, session) => {

            const email = formField(request.payload, 'email');
            const invited = await inviteUser(context.deps, { by: session.principal, email, role: formField(request.payload, 'rol') });
            // Shown on this answer only (no-store, like every panel page): only its digest is kept.
            const found = await context.deps.users.findById(invited.id);
            const created = internals.created(context, request, invited, internals.e.invited(found?.email ?? email));
            return internals.teamPage(h, context, request, session, { created });
        }, (request, h, session, error) => internals.teamPage(h, context, request, session, {
            error, email: formField(request.payload, 'email'), role: formField(request.payload, 'rol')
        }))
    },
    {
        method: 'GET',
        path: `${internals.path}/{id}`,
        options: { auth: false },
        handler: internals.onUser(context, (request, h, session, userId) => {

            const done = request.query.hecho;
            const notice = done === 'rol' ? internals.e.roleChanged : done === 'asignaciones' ? internals.e.assignmentsSaved : null;
            return internals.memberPage(h, context, request, session, userId, { notice });
        }, false)
    },
    {
        method: 'POST',
        path: `${internals.path}/{id}/rol`,
        options: { auth: false, payload: formPayload },
        handler: internals.onUser(context, async (request, h, session, userId) => {

            await changeUserRole(context.deps, { userId, role: formField(request.payload, 'rol'), by: session.principal });
            // An owner who made themselves member no longer manages the team.
            const demotedSelf = userId === session.principal.userId && formField(request.payload, 'rol') === 'member';
            return redirectTo(h, demotedSelf ? panelPaths.portfolio : `${internals.path}/${userId}?hecho=rol`);
        })
    },
    {
        method: 'POST',
        path: `${internals.path}/{id}/enlace`,
        options: { auth: false, payload: formPayload },
        handler: internals.onUser(context, async (request, h, session, userId) => {

            const renewed = await renewInvitation(context.deps, { userId, by: session.principal });
            const user = await context.deps.users.findById(userId);
            return internals.memberPage(h, context, request, session, userId, {
                created: internals.created(context, request, renewed, internals.e.renewed(user?.email ?? ''))
            });
        })
    },
    {
        // One CUIT typed, or the checked ones; `accion` assigns or takes them off.
        method: 'POST',
        path: `${internals.path}/{id}/asignar`,
        options: { auth: false, payload: formPayload },
        handler: internals.onUser(context, async (request, h, session, userId) => {

            if (!await internals.assign(context, request, session, userId)) {
                return (await internals.memberPage(h, context, request, session, userId, { error: internals.e.noSelection })).code(400);
            }

            return redirectTo(h, `${internals.path}/${userId}?hecho=asignaciones`);
        })
    },
    {
        // La cartera's selection (its checked `cuit`s) to the member chosen there (`usuario`),
        // through the same use case; the member's page then lists what they have.
        method: 'POST',
        path: `${internals.path}/asignar`,
        options: { auth: false, payload: formPayload },
        handler: internals.onUser(context, async (request, h, session, userId) => {

            if (!await internals.assign(context, request, session, userId)) {
                return errorPage(h, context, request, session, internals.e.noSelection, 400);
            }

            return redirectTo(h, `${internals.path}/${userId}?hecho=asignaciones`);
        }, false, (request) => formField(request.payload, 'usuario'))
    },
    {
        method: 'GET',
        path: `${internals.path}/{id}/borrar`,
        options: { auth: false },
        handler: internals.onUser(context, async (request, h, session, userId) => {

            const found = await teamMember(context.deps, session.principal, { userId });
            return renderTemplate(h, context, request, estudioViews.confirm, 'team', {
                title: internals.e.removeTitle,
                e: { cancel: internals.e.cancel },
                question: internals.e.removeQuestion(found.user.email),
                action: `${internals.path}/${userId}/borrar`,
                confirmLabel: internals.e.confirmRemove,
                back: `${internals.path}/${userId}`
            }, session);
        }, false)
    },
    {
        method: 'POST',
        path: `${internals.path}/{id}/borrar`,
        options: { auth: false, payload: formPayload },
        handler: internals.onUser(context, async (_request, h, session, userId) => {

            await removeUser(context.deps, { userId, by: session.principal });
            // Removing oneself ends one's own session with the rest.
            return redirectTo(h, userId === session.principal.userId ? panelPaths.signIn : `${internals.path}?hecho=eliminado`);
        })
    },
    {
        // The token is in the address: the request log names the route's pattern instead.
        method: 'GET',
        path: `${internals.invitation}/{token}`,
        options: { auth: false, app: { secretPath: true } },
        handler: async (request, h) => {

            try {
                return await internals.invitationPage(h, context, request, {});
            }
            catch (err) {
                return internals.refusedLink(h, context, request, err);
            }
        }
    },
    {
        method: 'POST',
        path: `${internals.invitation}/{token}`,
        options: { auth: false, app: { secretPath: true }, payload: formPayload },
        handler: async (request, h) => {

            const address = clientAddress(request, context.trustProxy);
            let accepted: Awaited<ReturnType<typeof acceptInvitation>>;
            try {
                accepted = await acceptInvitation(context.deps, {
                    token: String(request.params.token),
                    password: formField(request.payload, 'password'),
                    repeated: formField(request.payload, 'repetida'),
                    address
                });
            }
            catch (err) {
                if (isDomainError(err) && err.kind === 'invalid') {
                    try {
                        return (await internals.invitationPage(h, context, request, { error: err.message })).code(400);
                    }
                    catch (again) {
                        return internals.refusedLink(h, context, request, again);
                    }
                }

                return internals.refusedLink(h, context, request, err);
            }

            // Signed in as the user who set it, in a new session (whatever the browser had ends).
            await context.sessions.end(request, h);
            await context.sessions.start(h, accepted.userId);
            return redirectTo(h, panelPaths.portfolio);
        }
    }
];
