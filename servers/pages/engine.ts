import Handlebars from 'handlebars';

// The service's HTML pages (the panel's and the OAuth server's) are Handlebars templates:
// `{{ }}` escapes every value for HTML, so no page builds markup from a string and nothing is
// escaped by hand (no template uses `{{{ }}}`: the panel's and OAuth's tests render hostile
// texts on every page). Each front end gets an engine of its own, so its layout partial and
// helpers are its own; templates are compiled once, at start. They live in TS modules, not in
// files beside the code, because the build (tsc) copies no other files to dist/.

export type PageTemplate = (values: Record<string, unknown>) => string;

export const pageEngine = (layout: string): { compile(source: string): PageTemplate } => {

    const engine = Handlebars.create();
    engine.registerHelper('eq', (a: unknown, b: unknown) => a === b);
    engine.registerPartial('layout', layout);
    return { compile: (source) => engine.compile(source, { noEscape: false, strict: false }) };
};
