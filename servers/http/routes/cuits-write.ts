import type { Request, RouteOptions, ServerRoute } from '@hapi/hapi';
import { assertWritingEnabled } from '../../../core/domain/access.js';
import { DomainError, invalid } from '../../../core/domain/errors.js';
import { messages } from '../../../core/domain/messages.js';
import type { Ports } from '../../../core/ports/index.js';
import { createClient } from '../../../core/use-cases/create-client.js';
import { deleteClient } from '../../../core/use-cases/delete-client.js';
import { updateClient } from '../../../core/use-cases/update-client.js';
import { cuitParam, principalOf } from '../auth.js';
import { answerUseCase } from '../errors.js';
import { httpMessages } from '../messages.js';

// The write side (docs/api.md, Writes). hapi hands the body over unparsed so that the refusals
// come in the order the spec lists them: token (401), subscription (403) and limits (429) in
// the auth scheme, then writing not enabled (403), then the content type (415), then the JSON
// and the fields (400), then the CUIT (404) and the conflicts (409). The parse error of a
// malformed body is never shown nor logged: it may quote the key being sent.

const internals = {
    json: ['application/json'],
    // RFC 7396's own media type is accepted too for the merge patch.
    mergePatch: ['application/json', 'application/merge-patch+json'],

    payload: { parse: false, output: 'data', maxBytes: 64 * 1024 } satisfies RouteOptions['payload'],

    mediaType(request: Request): string {

        const header = String(request.headers['content-type'] ?? '');
        return header.split(';')[0]!.trim().toLowerCase();
    },

    body(request: Request, allowed: readonly string[]): unknown {

        if (!allowed.includes(internals.mediaType(request))) {
            throw new DomainError('unsupported_media_type', httpMessages.unsupportedMediaType);
        }

        const raw = Buffer.isBuffer(request.payload) ? request.payload : Buffer.alloc(0);
        let text: string;
        try {
            text = internals.utf8.decode(raw);
        }
        catch {
            throw invalid(internals.notUtf8(raw));
        }

        return internals.parseJson(text);
    },

    // RFC 8259: JSON is UTF-8. A lenient decoding would store U+FFFD in place of the bytes.
    utf8: new TextDecoder('utf-8', { fatal: true }),

    parseJson(text: string): unknown {

        try {
            return JSON.parse(text) as unknown;
        }
        catch {
            throw invalid([httpMessages.invalidJson]);
        }
    },

    // The fields whose text holds the bytes that are not UTF-8, when they can be told.
    notUtf8(raw: Buffer): string[] {

        const body = internals.parseJson(raw.toString('utf8'));
        const fields = body !== null && typeof body === 'object' && !Array.isArray(body)
            ? Object.entries(body).filter(
                ([, value]) => typeof value === 'string' && value.includes('\uFFFD')
            ).map(([name]) => messages.clientWrite.characters(name))
            : [];

        return fields.length ? fields : [httpMessages.invalidUtf8];
    }
};

export const cuitWriteRoutes = (deps: Ports): ServerRoute[] => [
    {
        method: 'POST',
        path: '/v1/cuits',
        options: { payload: internals.payload },
        handler: answerUseCase(async (request, h) => {

            const principal = principalOf(request);
            assertWritingEnabled(principal);
            const client = await createClient(deps, principal, internals.body(request, internals.json));
            return h.response({ data: client }).code(201);
        })
    },
    {
        method: 'PATCH',
        path: '/v1/cuits/{cuit}',
        options: { payload: internals.payload },
        handler: answerUseCase(async (request) => {

            const principal = principalOf(request);
            assertWritingEnabled(principal);
            const client = await updateClient(deps, principal, cuitParam(request), internals.body(request, internals.mergePatch));
            return { data: client };
        })
    },
    {
        method: 'DELETE',
        path: '/v1/cuits/{cuit}',
        // No body is expected; whatever comes is not read as JSON.
        options: { payload: internals.payload },
        handler: answerUseCase(async (request, h) => {

            await deleteClient(deps, principalOf(request), cuitParam(request));
            return h.response().code(204);
        })
    }
];
