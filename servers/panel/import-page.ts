import type { Request, ResponseObject, ResponseToolkit, RouteOptionsPayload, ServerRoute } from '@hapi/hapi';
import { isDomainError } from '../../core/domain/errors.js';
import type { ImportPreview, ImportReport } from '../../core/use-cases/import-clients.js';
import { confirmClientImport, previewClientImport } from '../../core/use-cases/import-clients.js';
import { csvTemplate, FileRefusal, readImportFile, xlsxTemplate } from './import-file.js';
import { importTexts } from './import-texts.js';
import { importViews } from './import-views.js';
import type { PanelContext } from './respond.js';
import { formField, formPayload, renderTemplate, withSession } from './respond.js';
import type { PanelSession } from './session.js';

// Importar clientes (/panel/clientes/importar; docs/panel.md): the file read into rows
// (import-file.ts), then core's import (core/use-cases/import-clients.ts) previews and, once
// confirmed, stores them; this module only translates. The preview is the answer to the upload
// and the report the answer to the confirmation (neither is a page a link can bring back); the
// keys stay server-side, sealed, and the confirmation form carries only the import's id.

const internals = {
    i: importTexts,
    path: '/panel/clientes/importar',
    maxFileBytes: 5 * 1024 * 1024,
    statusOf: { invalid: 400, not_found: 404 } as Record<string, number>,

    page(
        h: ResponseToolkit, context: PanelContext, request: Request, session: PanelSession | null,
        view: keyof typeof importViews, values: Record<string, unknown>
    ): ResponseObject {

        return renderTemplate(h, context, request, importViews[view], 'import', { title: internals.i.title, i: internals.i, ...values }, session);
    },

    // Each row as the tables show it.
    rowsShown: (rows: ImportPreview['accepted']) => rows.map((row) => ({ ...row, tipo: internals.i.tipos[row.tipo] ?? row.tipo })),

    // The uploaded file: the `archivo` part of the form, with the name the browser gave it.
    fileOf(payload: unknown): { name: string; data: Buffer } | null {

        const part = payload && typeof payload === 'object' ? (payload as Record<string, unknown>).archivo : undefined;
        if (Buffer.isBuffer(part)) {
            return { name: '', data: part };
        }

        // An empty file comes as an empty string; no file chosen, as one with no name.
        if (part && typeof part === 'object' && typeof (part as { filename?: unknown }).filename === 'string') {
            const { filename, payload: data } = part as { filename: string; payload: unknown };
            const bytes = Buffer.isBuffer(data) ? data : Buffer.from(typeof data === 'string' ? data : '');
            return filename === '' && !bytes.length ? null : { name: filename, data: bytes };
        }

        return null;
    },

    // The session's page, or the sign-in (or subscription) redirect; refusals of the file and
    // of core's rules answer the upload page with their Spanish message.
    handle(context: PanelContext, act: (request: Request, h: ResponseToolkit, session: PanelSession) => Promise<ResponseObject>) {

        return withSession(context, async (request, h, session) => {

            try {
                return await act(request, h, session);
            }
            catch (err) {
                const status = err instanceof FileRefusal ? 400 : isDomainError(err) ? internals.statusOf[err.kind] : undefined;
                if (status === undefined) {
                    throw err;
                }

                return internals.page(h, context, request, session, 'upload', { error: (err as Error).message }).code(status);
            }
        });
    },

    download: (h: ResponseToolkit, body: string | Buffer, type: string, name: string): ResponseObject => h.response(body).type(type)
        .header('Content-Disposition', `attachment; filename="${name}"`),

    // A file too large, or not sent as a form upload: the upload page with why (hapi refuses
    // it before the handler, and before the CSRF check: nothing is changed either way).
    uploadPayload(context: PanelContext): RouteOptionsPayload {

        return {
            output: 'data',
            parse: true,
            multipart: { output: 'annotated' },
            allow: 'multipart/form-data',
            maxBytes: internals.maxFileBytes + 64 * 1024,
            failAction: async (request, h, err) => {

                const session = await context.sessions.current(request);
                const tooLarge = (err as { output?: { statusCode?: number } } | undefined)?.output?.statusCode === 413;
                const message = tooLarge ? internals.i.tooLarge : internals.i.wrongFormat;
                return internals.page(h, context, request, session, 'upload', { error: message }).code(tooLarge ? 413 : 400).takeover();
            }
        };
    },

    previewValues(preview: ImportPreview, fileName: string): Record<string, unknown> {

        return {
            title: internals.i.previewTitle,
            fileLine: fileName ? internals.i.fileName(fileName) : null,
            summary: internals.i.summary(preview.accepted.length, preview.refused.length),
            billing: internals.i.billing(preview.accepted.length),
            confirmLabel: internals.i.confirm(preview.accepted.length),
            id: preview.id,
            accepted: internals.rowsShown(preview.accepted),
            refused: preview.refused,
            heading: internals.i.refusedHeading
        };
    },

    reportValues: (report: ImportReport): Record<string, unknown> => ({
        title: internals.i.doneTitle,
        importedLine: internals.i.imported(report.imported.length),
        refused: report.skipped,
        heading: internals.i.skippedHeading
    })
};

export const importRoutes = (context: PanelContext): ServerRoute[] => [
    {
        method: 'GET',
        path: internals.path,
        options: { auth: false },
        handler: internals.handle(context, async (request, h, session) => internals.page(h, context, request, session, 'upload', {}))
    },
    {
        method: 'GET',
        path: `${internals.path}/plantilla.csv`,
        options: { auth: false },
        handler: internals.handle(context, async (_request, h) => internals.download(h, csvTemplate(), 'text/csv; charset=utf-8', 'plantilla-clientes.csv'))
    },
    {
        method: 'GET',
        path: `${internals.path}/plantilla.xlsx`,
        options: { auth: false },
        handler: internals.handle(context, async (_request, h) => internals.download(
            h, await xlsxTemplate(), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'plantilla-clientes.xlsx'
        ))
    },
    {
        method: 'POST',
        path: internals.path,
        options: { auth: false, payload: internals.uploadPayload(context) },
        handler: internals.handle(context, async (request, h, session) => {

            const file = internals.fileOf(request.payload);
            if (!file) {
                throw new FileRefusal(internals.i.noFile);
            }

            if (file.data.length > internals.maxFileBytes) {
                return internals.page(h, context, request, session, 'upload', { error: internals.i.tooLarge }).code(413);
            }

            const preview = await previewClientImport(context.deps, session.principal, await readImportFile(file.data));
            return internals.page(h, context, request, session, 'preview', internals.previewValues(preview, file.name));
        })
    },
    {
        method: 'POST',
        path: `${internals.path}/confirmar`,
        options: { auth: false, payload: formPayload },
        handler: internals.handle(context, async (request, h, session) => {

            const report = await confirmClientImport(context.deps, session.principal, formField(request.payload, 'importacion'));
            return internals.page(h, context, request, session, 'done', internals.reportValues(report));
        })
    }
];
