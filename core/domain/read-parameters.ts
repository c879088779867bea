import type { Categoria } from './client.js';
import { categories } from './client.js';
import type { Cuit } from './cuit.js';
import { parseCuit } from './cuit.js';
import { invalid } from './errors.js';
import type { HealthState } from './health.js';
import { healthStates } from './health.js';
import { messages } from './messages.js';
import { maxLimit, pageDefaults } from './pagination.js';
import { isDecodedCleanly } from './text.js';
import { isCalendarDate } from './time.js';

// The parameters of the read endpoints (SPEC §4.2, §4.6 to §4.12, §4.14) and each one's rule,
// written once. Front ends hand over what they received as it came: HTTP its path and query
// strings, MCP a tool's JSON arguments. Every front end therefore accepts and refuses the
// same values with the same Spanish messages, and a new one cannot skip a rule.

export type RawParameters = Readonly<Record<string, unknown>>;

// What a read request carries: REST has a path (the `{cuit}`) and a query; an MCP tool has
// only its arguments, the CUIT among them.
export interface ReadRequest {
    readonly path?: RawParameters | undefined;
    readonly query: RawParameters;
}

export interface ReadParameters {
    cuit: Cuit;
    limit: number;
    offset: number;
    etiquetas: string[] | undefined;
    monotributista: boolean | undefined;
    autonomo: boolean | undefined;
    categoria: Categoria | undefined;
    from_date: string | undefined;
    to_date: string | undefined;
    estado: HealthState[] | undefined;
    requiere_atencion: boolean | undefined;
}

export type ReadParameterName = keyof ReadParameters;

// A tag name as the CUIT-list filter takes it.
export const tagNameBounds = { min: 1, max: 100 } as const;

type Parsed<T> = { ok: true; value: T } | { ok: false };

const internals = {
    // Digits only: no sign, blank, decimal point or exponent (' 1', '+1', '1e2', '50.0' and
    // '-0' are refused), so a value means exactly what it reads as.
    integerText: /^\d{1,15}$/,

    ok: <T>(value: T): Parsed<T> => ({ ok: true, value }),
    fail: { ok: false } as const,

    integer(raw: unknown, min: number, max: number): Parsed<number> {

        const value = typeof raw === 'string' && internals.integerText.test(raw) ? Number(raw)
            : typeof raw === 'number' && Number.isSafeInteger(raw) && !Object.is(raw, -0) ? raw
                : NaN;
        return value >= min && value <= max ? internals.ok(value) : internals.fail;
    },

    boolean(raw: unknown): Parsed<boolean> {

        if (typeof raw === 'boolean') {
            return internals.ok(raw);
        }

        return raw === 'true' || raw === 'false' ? internals.ok(raw === 'true') : internals.fail;
    },

    // A repeated parameter (form, exploded): one value arrives alone, several as a list.
    tagNames(raw: unknown): Parsed<string[]> {

        const list = Array.isArray(raw) ? raw : [raw];
        const valid = list.length > 0 && list.every((name) => typeof name === 'string' && name.length >= tagNameBounds.min && name.length <= tagNameBounds.max && isDecodedCleanly(name));
        return valid ? internals.ok(list as string[]) : internals.fail;
    },

    // Repeated like etiquetas: one or more health states.
    states(raw: unknown): Parsed<HealthState[]> {

        const list = Array.isArray(raw) ? raw : [raw];
        return list.length > 0 && list.every((state) => (healthStates as readonly unknown[]).includes(state)) ? internals.ok(list as HealthState[]) : internals.fail;
    },

    date(raw: unknown): Parsed<string> {

        return typeof raw === 'string' && isCalendarDate(raw) ? internals.ok(raw) : internals.fail;
    },

    // An MCP client may send the CUIT as a JSON number (the Inspector CLI does).
    cuit(raw: unknown): Parsed<Cuit> {

        const text = typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0 ? String(raw) : raw;
        const cuit = typeof text === 'string' ? parseCuit(text) : null;
        return cuit ? internals.ok(cuit) : internals.fail;
    },

    defaults: { limit: pageDefaults.limit, offset: pageDefaults.offset } as Partial<ReadParameters>,

    // An MCP client may send null for an argument it leaves out.
    has: (source: RawParameters, name: string): boolean => Object.hasOwn(source, name) && source[name] !== undefined && source[name] !== null
};

// Each parameter's rule and the message that names it.
const rules: { [K in ReadParameterName]: { parse: (raw: unknown) => Parsed<ReadParameters[K]>; message: string } } = {
    cuit: { parse: (raw: unknown) => internals.cuit(raw), message: messages.field.cuit },
    limit: { parse: (raw: unknown) => internals.integer(raw, 1, maxLimit), message: messages.field.limit },
    offset: { parse: (raw: unknown) => internals.integer(raw, 0, Number.MAX_SAFE_INTEGER), message: messages.field.offset },
    etiquetas: { parse: (raw: unknown) => internals.tagNames(raw), message: messages.field.etiquetas },
    monotributista: { parse: (raw: unknown) => internals.boolean(raw), message: messages.field.monotributista },
    autonomo: { parse: (raw: unknown) => internals.boolean(raw), message: messages.field.autonomo },
    categoria: { parse: (raw: unknown) => (categories.includes(raw as Categoria) ? internals.ok(raw as Categoria) : internals.fail), message: messages.field.categoria },
    from_date: { parse: (raw: unknown) => internals.date(raw), message: messages.field.from_date },
    to_date: { parse: (raw: unknown) => internals.date(raw), message: messages.field.to_date },
    estado: { parse: (raw: unknown) => internals.states(raw), message: messages.field.estado },
    requiere_atencion: { parse: (raw: unknown) => internals.boolean(raw), message: messages.field.requiere_atencion }
};


// Parses the named parameters of a read request; anything else it carries is refused, so a
// typo like `fromDate` is reported instead of silently ignored. Every failure is joined in
// one message (SPEC §7): the path's first, then the parameters in the order named.
export const parseReadRequest = <K extends ReadParameterName>(request: ReadRequest, names: readonly K[]): Pick<ReadParameters, K> => {

    const failures: string[] = [];
    const values: Partial<ReadParameters> = {};
    const fromPath = new Set(Object.keys(request.path ?? {}));

    for (const name of names) {
        const source = fromPath.has(name) ? request.path! : request.query;
        if (!internals.has(source, name)) {
            if (name === 'cuit') {
                failures.push(messages.field.cuit);
            }

            (values as Record<string, unknown>)[name] = internals.defaults[name];
            continue;
        }

        const rule = rules[name];
        const parsed = rule.parse(source[name]);
        if (parsed.ok) {
            (values as Record<string, unknown>)[name] = parsed.value;
        }
        else {
            failures.push(name === 'cuit' && fromPath.has(name) ? messages.field.cuitPath : rule.message);
        }
    }

    // SPEC §4.6: both ends of the period or neither, in order.
    if (names.includes('from_date' as K) && internals.has(request.query, 'from_date') !== internals.has(request.query, 'to_date')) {
        failures.push(messages.dateRangeIncomplete);
    }
    else if (values.from_date !== undefined && values.to_date !== undefined && values.from_date > values.to_date) {
        failures.push(messages.dateRangeInverted);
    }

    for (const name of Object.keys(request.query)) {
        if (!names.includes(name as K) || fromPath.has(name)) {
            failures.push(messages.unknownParameter(name));
        }
    }

    if (failures.length) {
        throw invalid(failures);
    }

    return values as Pick<ReadParameters, K>;
};
