import Handlebars from 'handlebars';

// The service's HTML pages (the panel's and the OAuth server's) are Handlebars templates:
// `{{ }}` escapes every value for HTML, so no page builds markup from a string and nothing is
// escaped by hand (no template uses `{{{ }}}`: the panel's and OAuth's tests render hostile
// texts on every page). Each front end gets an engine of its own, so its layout partial and
// helpers are its own; templates are compiled once, at start. They live in TS modules, not in
// files beside the code, because the build (tsc) copies no other files to dist/.

export type PageTemplate = (values: Record<string, unknown>) => string;

// The helpers every template may use beside Handlebars' own (if, each, with, unless, lookup).
const helpers = {
    eq: (a: unknown, b: unknown) => a === b
};

// `partials`: pieces the front end's templates share beside the layout (`{{> name}}`).
export const pageEngine = (layout: string, partials: Record<string, string> = {}): { compile(source: string): PageTemplate } => {

    const engine = Handlebars.create();
    for (const [name, helper] of Object.entries(helpers)) {
        engine.registerHelper(name, helper);
    }

    engine.registerPartial({ ...partials, layout });
    // Only known helpers: each `{{value}}` compiles to a property read, not to a check for a
    // helper of that name first (half a page of rows' rendering time, issue 38's bench). A
    // helper used but not listed in `helpers` fails the template's first render.
    const knownHelpers = Object.fromEntries(Object.keys(helpers).map((name) => [name, true]));
    return { compile: (source) => engine.compile(source, { noEscape: false, strict: false, knownHelpers, knownHelpersOnly: true }) };
};
