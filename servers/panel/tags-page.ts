import type { Request, ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { mayManageAccount } from '../../core/domain/access.js';
import { listTags } from '../../core/use-cases/list-tags.js';
import { assignTagToClients, unassignTagFromClients } from '../../core/use-cases/staff/assign-tag.js';
import { deleteTag, updateTag } from '../../core/use-cases/staff/change-tag.js';
import { createTag } from '../../core/use-cases/staff/create-tag.js';
import { estudioTexts } from './estudio-texts.js';
import { estudioViews } from './estudio-views.js';
import type { PanelContext, SessionAct } from './respond.js';
import { errorPage, formField, formPayload, formValues, redirectTo, renderTemplate, withOwnerSession } from './respond.js';
import type { PanelSession } from './session.js';
import { panelTexts } from './texts.js';

// Las etiquetas (/panel/etiquetas): create, rename, recolour, delete, and assign or take off
// la cartera's selection, through the staff use cases the CLI's `tag` commands run. Tags are
// account-wide: a change shows on every user's cartera and in every token's API answers, so
// only owners make them (the core's rule, access.ts: owners alone see the whole cartera a tag
// spans); a member gets the 403 page. Every change raises the account's data version: the API shows it on its next read.

const internals = {
    e: estudioTexts,
    path: '/panel/etiquetas',
    // How many CUITs one selection may carry: la cartera shows 50 a page.
    maxSelection: 200,
    statusOf: { invalid: 400, conflict: 409, not_found: 404 } as Record<string, number>,

    // Where to go back to after tagging: a page of the panel, never another site.
    back: (value: string): string => (/^\/panel(?:[/?]|$)/.test(value) && !value.startsWith('//') ? value : '/panel'),

    // Owners only (withOwnerSession); a refused form shows the tags page again, with the
    // message and what was typed.
    handle: (context: PanelContext, act: SessionAct) => withOwnerSession(context, act, (request, h, session, error) => internals.page(
        h, context, request, session, { error, name: formField(request.payload, 'nombre'), color: formField(request.payload, 'color') }
    )),

    async page(h: ResponseToolkit, context: PanelContext, request: Request, session: PanelSession, values: Record<string, unknown>): Promise<ResponseObject> {

        const tags = await listTags(context.deps, session.principal, { query: { limit: '100' } });
        return renderTemplate(h, context, request, estudioViews.tags, 'tags', {
            title: internals.e.tagsTitle,
            e: internals.e,
            tags: tags.data.map((tag) => ({ ...tag, remove: `${internals.path}/borrar?${new URLSearchParams({ etiqueta: tag.nombre }).toString()}` })),
            ...values
        }, session);
    }
};

// The client page's tag form (owners): the account's tags, back to the same page afterwards.
export const clientTagging = async (context: PanelContext, request: Request, session: PanelSession, cuit: string) => {

    if (!mayManageAccount(session.principal)) {
        return { tagging: null };
    }

    const tags = await listTags(context.deps, session.principal, { query: { limit: '100' } });
    return { tagging: { cuit, tags: tags.data.map((tag) => tag.nombre), back: request.url.pathname + request.url.search } };
};

export const tagRoutes = (context: PanelContext): ServerRoute[] => [
    {
        method: 'GET',
        path: internals.path,
        options: { auth: false },
        handler: internals.handle(context, (request, h, session) => {

            const done = request.query.hecho;
            const notice = done === 'creada' ? internals.e.tagCreated : done === 'editada' ? internals.e.tagUpdated : done === 'borrada' ? internals.e.tagDeleted : null;
            return internals.page(h, context, request, session, { notice });
        })
    },
    {
        method: 'POST',
        path: internals.path,
        options: { auth: false, payload: formPayload },
        handler: internals.handle(context, async (request, h, session) => {

            await createTag(context.deps, { by: session.principal, name: formField(request.payload, 'nombre'), color: formField(request.payload, 'color') });
            return redirectTo(h, `${internals.path}?hecho=creada`);
        })
    },
    {
        method: 'POST',
        path: `${internals.path}/editar`,
        options: { auth: false, payload: formPayload },
        handler: internals.handle(context, async (request, h, session) => {

            await updateTag(context.deps, {
                by: session.principal,
                name: formField(request.payload, 'etiqueta'),
                newName: formField(request.payload, 'nombre'),
                color: formField(request.payload, 'color')
            });
            return redirectTo(h, `${internals.path}?hecho=editada`);
        })
    },
    {
        method: 'GET',
        path: `${internals.path}/borrar`,
        options: { auth: false },
        handler: internals.handle(context, async (request, h, session) => {

            const name = typeof request.query.etiqueta === 'string' ? request.query.etiqueta : '';
            const tags = await listTags(context.deps, session.principal, { query: { limit: '100' } });
            if (!tags.data.some((tag) => tag.nombre === name)) {
                return errorPage(h, context, request, session, panelTexts.notFound, 404);
            }

            return renderTemplate(h, context, request, estudioViews.confirm, 'tags', {
                title: internals.e.deleteTagTitle,
                e: internals.e,
                question: internals.e.deleteTagQuestion(name),
                action: `${internals.path}/borrar`,
                field: { name: 'etiqueta', value: name },
                confirmLabel: internals.e.confirmDelete,
                back: internals.path
            }, session);
        })
    },
    {
        method: 'POST',
        path: `${internals.path}/borrar`,
        options: { auth: false, payload: formPayload },
        handler: internals.handle(context, async (request, h, session) => {

            await deleteTag(context.deps, { by: session.principal, name: formField(request.payload, 'etiqueta') });
            return redirectTo(h, `${internals.path}?hecho=borrada`);
        })
    },
    {
        // La cartera's selection: checkboxes named `cuit` tied to this form, one tag, assign or take off.
        method: 'POST',
        path: `${internals.path}/asignar`,
        options: { auth: false, payload: formPayload },
        handler: internals.handle(context, async (request, h, session) => {

            const payload = request.payload as Record<string, unknown> | null;
            const cuits = formValues(payload, 'cuit', internals.maxSelection);
            const name = formField(payload, 'etiqueta');
            if (!cuits.length || !name) {
                return errorPage(h, context, request, session, internals.e.noSelection, 400);
            }

            const change = formField(payload, 'accion') === 'quitar' ? unassignTagFromClients : assignTagToClients;
            await change(context.deps, { by: session.principal, cuits, name });

            return redirectTo(h, internals.back(formField(payload, 'volver')));
        })
    }
];
