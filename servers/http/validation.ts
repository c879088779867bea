import type { Request, ResponseToolkit } from '@hapi/hapi';
import Joi from 'joi';
import { cuitPattern } from '../../core/domain/cuit.js';
import { invalid } from '../../core/domain/errors.js';
import { messages } from '../../core/domain/messages.js';
import { isCalendarDate } from '../../core/domain/time.js';
import { toBoom } from './errors.js';

// joi schemas of the query and path parameters, and the failAction that turns every failing
// field into its Spanish message, joined in one `error` (SPEC §7).

const internals = {
    fieldMessages: messages.field as Record<string, string>,

    messageFor(detail: Joi.ValidationErrorItem, source: string): string {

        const name = String(detail.path[0] ?? detail.context?.key ?? '');
        if (detail.type === 'object.unknown') {
            return source === 'payload' ? messages.unknownField(name) : messages.unknownParameter(name);
        }

        if (detail.type === 'object.and') {
            return messages.dateRangeIncomplete;
        }

        if (source === 'params' && name === 'cuit') {
            return messages.field.cuitPath;
        }

        return internals.fieldMessages[name] ?? `El parámetro '${name}' no es válido.`;
    }
};

// hapi hands over the joi error, boomified with the failing source. hapi checks the path
// before the query and stops at the first failing source, so a failing path also reports the
// query's failures: every failing field lands in the one `error` (SPEC §7).
export const failAction = (request: Request, _h: ResponseToolkit, err?: Error): never => {

    const error = err as (Joi.ValidationError & { output?: { payload?: { validation?: { source?: string } } } }) | undefined;
    const source = error?.output?.payload?.validation?.source ?? 'query';
    const failures = (error?.details ?? []).map((detail) => internals.messageFor(detail, source));
    const querySchema = request.route.settings.validate?.query;
    if (source === 'params' && Joi.isSchema(querySchema)) {
        const query = querySchema.validate(request.query, validationOptions);
        failures.push(...(query.error?.details ?? []).map((detail) => internals.messageFor(detail, 'query')));
    }

    throw toBoom(invalid(failures));
};

export const validationOptions = { abortEarly: false, convert: true, errors: { wrap: { label: false } } } as const;

export const pageQuery = {
    limit: Joi.number().integer().min(1).max(100),
    offset: Joi.number().integer().min(0)
};

export const cuitParams = Joi.object({ cuit: Joi.string().pattern(cuitPattern).required() });

export const dateParam = Joi.string().custom((value: string, helpers) => (isCalendarDate(value) ? value : helpers.error('any.invalid')));

// Route options for a GET under /v1 with these query keys (unknown keys are refused so a
// typo like `fromDate` is reported instead of silently ignored).
export const validateRoute = (query: Record<string, Joi.Schema>, options: { cuit?: boolean; and?: [string, string] } = {}) => {

    let querySchema = Joi.object(query);
    if (options.and) {
        querySchema = querySchema.and(...options.and);
    }

    return {
        options: validationOptions,
        query: querySchema,
        failAction,
        ...(options.cuit ? { params: cuitParams } : {})
    };
};
