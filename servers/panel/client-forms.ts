import type { Request, ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { ClientRecord } from '../../core/domain/client.js';
import { clientTypes, deleteCascade } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { formatCuit, parseCuit } from '../../core/domain/cuit.js';
import type { DomainError } from '../../core/domain/errors.js';
import { isDomainError } from '../../core/domain/errors.js';
import { createClient } from '../../core/use-cases/create-client.js';
import { deleteClient } from '../../core/use-cases/delete-client.js';
import { editableClient } from '../../core/use-cases/editable-client.js';
import { updateClient } from '../../core/use-cases/update-client.js';
import { clientBase } from './client-page.js';
import { clientFormTexts } from './client-form-texts.js';
import { clientFormViews } from './client-form-views.js';
import { clientTexts } from './client-texts.js';
import type { PanelContext } from './respond.js';
import { formField, formPayload, panelPaths, redirectTo, renderPage, renderTemplate, withSession } from './respond.js';
import type { PanelSession } from './session.js';
import { panelTexts } from './texts.js';

// Creating, editing and deleting a client from the panel (docs/panel.md, Los clientes): the
// form's fields are the API's body, handed to the same use cases as POST, PATCH and DELETE
// /v1/cuits with the channel 'panel', so the rules, their order and their Spanish messages are
// the API's; only API writing (the API's own feature) is not asked. Owners and members alike,
// as through the API: a member's new CUIT is assigned to it, and it edits and deletes only
// what it sees. A CUIT the user may not see is the one 404 page. The key is never sent back.

type Body = Record<string, string | null>;

// A client the user sees, with its representative's CUIT when the user sees that person too.
interface Editable {
    client: ClientRecord;
    representante: Cuit | null;
}

const internals = {
    f: clientFormTexts,
    newPath: '/panel/clientes/nuevo',
    person: ['nombre', 'apellido', 'clave_arca'],
    entity: ['razon_social', 'representante'],
    contact: ['email', 'telefono'],
    // Every field a form shows (and so can show a refusal beside).
    shown: new Set(['tipo', 'cuit', 'nombre', 'apellido', 'clave_arca', 'razon_social', 'representante', 'email', 'telefono']),

    // The creation body: the chosen tipo's fields and the contact; an empty field is one not
    // sent (so a missing required one is "obligatorio", and an empty email or phone is none).
    newBody(payload: unknown): Body {

        const tipo = formField(payload, 'tipo');
        const names = tipo === 'persona-fisica' ? internals.person : tipo === 'persona-juridica' ? internals.entity : [...internals.person, ...internals.entity];
        const body: Body = tipo ? { tipo } : {};
        for (const name of ['cuit', ...names, ...internals.contact]) {
            const value = formField(payload, name);
            if (value !== '') {
                body[name] = value;
            }
        }

        return body;
    },

    // The edit as a merge patch: the fields changed from what is stored; the key only when
    // typed (it is never shown), the representative when typed and another (empty keeps it: a
    // member may not see it); an emptied email or phone is null.
    patchBody(payload: unknown, { client, representante }: Editable): Body {

        const stored: Record<string, string | null> = {
            nombre: client.nombre, apellido: client.apellido, razon_social: client.razonSocial, email: client.email, telefono: client.telefono
        };
        const body: Body = {};
        for (const name of client.tipo === 'persona-fisica' ? ['nombre', 'apellido'] : ['razon_social']) {
            const value = formField(payload, name);
            if (value !== stored[name]) {
                body[name] = value;
            }
        }

        const key = formField(payload, 'clave_arca');
        if (client.tipo === 'persona-fisica' && key !== '') {
            body.clave_arca = key;
        }

        const typed = formField(payload, 'representante');
        if (client.tipo === 'persona-juridica' && typed.trim() !== '' && parseCuit(typed.trim()) !== representante) {
            body.representante = typed;
        }

        for (const name of internals.contact) {
            const value = formField(payload, name);
            const next = value.trim() === '' ? null : value;
            if (next !== stored[name]) {
                body[name] = next;
            }
        }

        return body;
    },

    // What the form typed, to show again: never the key.
    typed(payload: unknown): Record<string, string> {

        return Object.fromEntries([...internals.shown].filter((name) => name !== 'clave_arca').map((name) => [name, formField(payload, name)]));
    },

    // A refusal beside the fields it names; what names none (or a field the form lacks) above them.
    problems(err: DomainError) {

        const errors = Object.fromEntries(Object.entries(err.fields).filter(([name]) => internals.shown.has(name)));
        const elsewhere = Object.entries(err.fields).filter(([name]) => !internals.shown.has(name)).map(([, message]) => message);
        const general = Object.keys(err.fields).length === 0 ? err.message : elsewhere.length ? elsewhere.join(' ') : null;
        return { errors, fieldErrors: Object.keys(errors), general };
    },

    tipos: (chosen: string) => clientTypes.map((value) => ({ value, label: internals.f.tipos[value], checked: value === chosen })),

    notFound: (h: ResponseToolkit, context: PanelContext, request: Request, session: PanelSession): ResponseObject => renderPage(
        h, context, request, 'error', { title: panelTexts.errorTitle, message: panelTexts.notFound }, session
    ).code(404),

    render(
        h: ResponseToolkit, context: PanelContext, request: Request, session: PanelSession, view: keyof typeof clientFormViews, values: Record<string, unknown>
    ) {

        return renderTemplate(h, context, request, clientFormViews[view], 'cliente', { f: internals.f, c: clientTexts, ...values }, session);
    },

    createPage(h: ResponseToolkit, context: PanelContext, request: Request, session: PanelSession, values: Record<string, string>, problems = {}) {

        return internals.render(h, context, request, session, 'create', {
            title: internals.f.newClient,
            action: internals.newPath,
            submit: internals.f.create,
            back: panelPaths.portfolio,
            tipos: internals.tipos(values.tipo ?? ''),
            values,
            hints: internals.f.hints,
            ...problems
        });
    },

    editPage(
        h: ResponseToolkit, context: PanelContext, request: Request, session: PanelSession, client: ClientRecord, values: Record<string, string>, problems = {}
    ) {

        const base = clientBase(client.cuit);
        return internals.render(h, context, request, session, 'edit', {
            title: internals.f.editTitle(client.displayName),
            name: client.displayName,
            cuit: formatCuit(client.cuit),
            person: client.tipo === 'persona-fisica',
            action: `${base}/editar`,
            submit: internals.f.save,
            back: base,
            values,
            hints: { clave_arca: internals.f.keyReplace, representante: internals.f.representativeReplace },
            ...problems
        });
    },

    deletePage(h: ResponseToolkit, context: PanelContext, request: Request, session: PanelSession, client: ClientRecord, general: string | null = null) {

        const base = clientBase(client.cuit);
        return internals.render(h, context, request, session, 'remove', {
            title: internals.f.deleteTitle(client.displayName),
            question: internals.f.deleteQuestion(client.displayName, formatCuit(client.cuit)),
            cascade: deleteCascade.map((part) => internals.f.cascade[part]),
            person: client.tipo === 'persona-fisica',
            action: `${base}/borrar`,
            back: base,
            general
        });
    },

    // A client page's form: the client the user sees, else the 404 page (malformed, absent,
    // another account's or not assigned alike).
    handleClient(context: PanelContext, act: (request: Request, h: ResponseToolkit, session: PanelSession, editable: Editable) => Promise<ResponseObject>) {

        return withSession(context, async (request, h, session) => {

            const cuit = parseCuit(String(request.params.cuit));
            if (!cuit) {
                return internals.notFound(h, context, request, session);
            }

            try {
                return await act(request, h, session, await editableClient(context.deps, session.principal, cuit));
            }
            catch (err) {
                if (isDomainError(err) && err.kind === 'not_found') {
                    return internals.notFound(h, context, request, session);
                }

                throw err;
            }
        });
    }
};

// What the client's page adds: its edit and delete links, and the notice after a write.
export const clientWriteLinks = (cuit: Cuit, query: Record<string, unknown>) => {

    const base = clientBase(cuit);
    return {
        writes: { edit: `${base}/editar`, editLabel: internals.f.edit, remove: `${base}/borrar`, removeLabel: internals.f.remove },
        written: query.hecho === 'creado' ? internals.f.created : query.hecho === 'editado' ? internals.f.updated : null
    };
};

// What la cartera adds: the link to create a client, and the notice after a deletion.
export const portfolioWriteLinks = (query: Record<string, unknown>) => {

    const deleted = typeof query.borrado === 'string' ? parseCuit(query.borrado) : null;
    return {
        newClient: { href: internals.newPath, label: internals.f.newClient },
        notice: deleted ? internals.f.deleted(formatCuit(deleted)) : null
    };
};

export const clientFormRoutes = (context: PanelContext): ServerRoute[] => [
    {
        method: 'GET',
        path: internals.newPath,
        options: { auth: false },
        handler: withSession(context, async (request, h, session) => internals.createPage(h, context, request, session, { tipo: 'persona-fisica' }))
    },
    {
        method: 'POST',
        path: internals.newPath,
        options: { auth: false, payload: formPayload },
        handler: withSession(context, async (request, h, session) => {

            try {
                const client = await createClient(context.deps, session.principal, internals.newBody(request.payload), 'panel');
                return redirectTo(h, `${clientBase(client.cuit as Cuit)}?hecho=creado`);
            }
            catch (err) {
                if (!isDomainError(err) || (err.kind !== 'invalid' && err.kind !== 'conflict')) {
                    throw err;
                }

                // The one conflict of a creation: the CUIT is already in the account.
                const problems = err.kind === 'conflict' ? { errors: { cuit: err.message }, fieldErrors: ['cuit'], general: null } : internals.problems(err);
                return internals.createPage(h, context, request, session, internals.typed(request.payload), problems).code(err.kind === 'conflict' ? 409 : 400);
            }
        })
    },
    {
        method: 'GET',
        path: '/panel/clientes/{cuit}/editar',
        options: { auth: false },
        handler: internals.handleClient(context, async (request, h, session, { client, representante }) => {

            const stored = {
                nombre: client.nombre ?? '',
                apellido: client.apellido ?? '',
                razon_social: client.razonSocial ?? '',
                representante: representante ? formatCuit(representante) : '',
                email: client.email ?? '',
                telefono: client.telefono ?? ''
            };
            return internals.editPage(h, context, request, session, client, stored);
        })
    },
    {
        method: 'POST',
        path: '/panel/clientes/{cuit}/editar',
        options: { auth: false, payload: formPayload },
        handler: internals.handleClient(context, async (request, h, session, editable) => {

            const { client } = editable;
            try {
                await updateClient(context.deps, session.principal, client.cuit, internals.patchBody(request.payload, editable), 'panel');
                return redirectTo(h, `${clientBase(client.cuit)}?hecho=editado`);
            }
            catch (err) {
                if (!isDomainError(err) || err.kind !== 'invalid') {
                    throw err;
                }

                return internals.editPage(h, context, request, session, client, internals.typed(request.payload), internals.problems(err)).code(400);
            }
        })
    },
    {
        method: 'GET',
        path: '/panel/clientes/{cuit}/borrar',
        options: { auth: false },
        handler: internals.handleClient(context, async (request, h, session, { client }) => internals.deletePage(h, context, request, session, client))
    },
    {
        method: 'POST',
        path: '/panel/clientes/{cuit}/borrar',
        options: { auth: false, payload: formPayload },
        handler: internals.handleClient(context, async (request, h, session, { client }) => {

            try {
                await deleteClient(context.deps, session.principal, client.cuit, 'panel');
            }
            catch (err) {
                // SPEC's 409: a person who represents legal entities of the account stays.
                if (isDomainError(err) && err.kind === 'conflict') {
                    return internals.deletePage(h, context, request, session, client, err.message).code(409);
                }

                throw err;
            }

            return redirectTo(h, `${panelPaths.portfolio}?${new URLSearchParams({ borrado: formatCuit(client.cuit) }).toString()}`);
        })
    }
];
