import type { ServerRoute } from '@hapi/hapi';
import { subscriptionOf } from '../../core/use-cases/subscription.js';
import type { PanelContext } from './respond.js';
import { panelPaths, renderPage, withSession } from './respond.js';
import { panelTexts } from './texts.js';

// La suscripción (/panel/suscripcion): the account's state in words, what to do, how many
// CUITs are billed. The page the API's 403s send users to, and where the panel sends a user
// whose subscription is not active; staff change the state (`arcasync account update ID
// --subscription …`), and the next request sees it.

export const subscriptionRoutes = (context: PanelContext): ServerRoute[] => [
    {
        method: 'GET',
        path: panelPaths.subscription,
        options: { auth: false },
        handler: withSession(context, async (request, h, session) => {

            const { state, billedCuits } = await subscriptionOf(context.deps, session.principal);
            const words = panelTexts.subscription[state];
            return renderPage(h, context, request, 'subscription', {
                title: panelTexts.subscriptionTitle,
                state,
                active: state === 'active',
                stateLabel: words.label,
                explanation: words.explanation,
                todo: words.todo,
                billed: panelTexts.billedCuits(billedCuits)
            }, session);
        }, { whileInactive: true })
    }
];
