import type { ServerRoute } from '@hapi/hapi';
import { isDomainError } from '../../core/domain/errors.js';
import { minPasswordLength } from '../../core/domain/password.js';
import { createCalendarFeed, revokeCalendarFeed } from '../../core/use-cases/calendar-feed.js';
import { changePassword } from '../../core/use-cases/change-password.js';
import { clientAddress } from '../http/client-address.js';
import type { PanelContext } from './respond.js';
import { formField, formPayload, panelPaths, redirectTo, renderPage, withSession } from './respond.js';
import { answerTexts } from './answer-texts.js';
import { panelTexts } from './texts.js';

// Mi cuenta (/panel/cuenta): a user changes their own password (core's changePassword: the
// current one checked under the sign-in throttle, staff's length rule). Every session and
// OAuth grant of the user ends with the old password; this browser then gets a new session
// (a new token, never the old one), since it just proved both the session and the password:
// asking to sign in again would check nothing more. Open while the subscription is inactive:
// a user may need to change a password that leaked whatever the account pays.
//
// The private calendar address (core's calendar feed): created by a POST whose answer is the
// page showing it, once (the secret is never in an address the browser keeps in its history
// or in a redirect); revoked by another POST. Both behind the CSRF check like every form.

const internals = {
    t: panelTexts,
    options: { whileInactive: true },
    calendarPath: `${panelPaths.account}/calendario`
};

export const accountRoutes = (context: PanelContext): ServerRoute[] => [
    {
        method: 'GET',
        path: panelPaths.account,
        options: { auth: false },
        handler: withSession(context, async (request, h, session) => {

            const notice = request.query.cambiada === '1' ? internals.t.passwordChanged : null;
            const revoked = request.query.calendario;
            const calendar = { notice: revoked === 'revocado' ? answerTexts.calendarRevoked : revoked === 'ninguno' ? answerTexts.calendarNoneToRevoke : null };
            return renderPage(h, context, request, 'account', {
                title: internals.t.accountTitle, rules: internals.t.passwordRules(minPasswordLength), email: session.email, notice, calendar
            }, session);
        }, internals.options)
    },
    {
        method: 'POST',
        path: panelPaths.account,
        options: { auth: false, payload: formPayload },
        handler: withSession(context, async (request, h, session) => {

            try {
                await changePassword(context.deps, {
                    userId: session.principal.userId,
                    current: formField(request.payload, 'actual'),
                    next: formField(request.payload, 'nueva'),
                    repeated: formField(request.payload, 'repetida'),
                    address: clientAddress(request, context.trustProxy)
                });
            }
            catch (err) {
                if (isDomainError(err) && (err.kind === 'invalid' || err.kind === 'rate_limited')) {
                    return renderPage(h, context, request, 'account', {
                        title: internals.t.accountTitle, rules: internals.t.passwordRules(minPasswordLength), email: session.email, error: err.message
                    }, session).code(err.kind === 'invalid' ? 400 : 429);
                }

                throw err;
            }

            // The old session went with the password (revoked with every entry of the user).
            await context.sessions.start(h, session.principal.userId);
            return redirectTo(h, `${panelPaths.account}?cambiada=1`);
        }, internals.options)
    },
    {
        method: 'POST',
        path: internals.calendarPath,
        options: { auth: false, payload: formPayload },
        handler: withSession(context, async (request, h, session) => {

            const { token } = await createCalendarFeed(context.deps, session.principal.userId);
            return renderPage(h, context, request, 'account', {
                title: internals.t.accountTitle,
                rules: internals.t.passwordRules(minPasswordLength),
                email: session.email,
                calendar: { address: `${context.baseUrl(request)}/calendario/${token}.ics` }
            }, session).header('Cache-Control', 'no-store');
        })
    },
    {
        method: 'POST',
        path: `${internals.calendarPath}/revocar`,
        options: { auth: false, payload: formPayload },
        handler: withSession(context, async (_request, h, session) => {

            const { revoked } = await revokeCalendarFeed(context.deps, session.principal.userId);
            return redirectTo(h, `${panelPaths.account}?calendario=${revoked ? 'revocado' : 'ninguno'}`);
        }, internals.options)
    }
];
