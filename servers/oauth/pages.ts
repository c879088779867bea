import { pageEngine } from '../pages/engine.js';
import { texts } from './texts.js';

// The authorization pages, in Spanish, plain HTML forms that work without JavaScript:
// Handlebars templates on the panel's engine (servers/pages/engine.ts: every value escaped).
// Their one style sheet is the layout's own text (CSP style-src 'unsafe-inline'), never a value.

const internals = {
    layout: `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>{{title}}</title><style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f6f8;color:#1d2733;margin:0;padding:2rem 1rem}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:.75rem;box-shadow:0 1px 4px rgba(0,0,0,.12);padding:1.5rem 1.75rem}
h1{font-size:1.35rem;margin:0 0 1rem}
ul{padding-left:1.25rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #b8c2cc;border-radius:.4rem;font-size:1rem}
fieldset{border:0;padding:0;margin:1rem 0 0}legend{font-weight:600}
.actions{display:flex;gap:.75rem;margin-top:1.25rem}
button{flex:1;padding:.65rem;font-size:1rem;border-radius:.4rem;border:1px solid #1f5fbf;cursor:pointer}
button[value=allow]{background:#1f5fbf;color:#fff}button[value=deny]{background:#fff;color:#1f5fbf}
.error{background:#fdecea;color:#8a1c12;border-radius:.4rem;padding:.6rem .8rem}
.note{color:#56636f;font-size:.9rem}
</style></head><body><main>{{> @partial-block }}</main></body></html>`,

    consent: `{{#> layout}}<h1>{{t.heading}}</h1>
<p>{{clientAsks}}</p>
<p>{{t.scopeTitle}}</p>
<ul>{{#each t.scopeItems}}<li>{{this}}</li>{{/each}}</ul>
<p><strong>{{t.scopeNoWrite}}</strong></p>
{{#if redirectNote}}<p class="note">{{redirectNote}}</p>{{/if}}
{{#if error}}<p class="error" role="alert">{{error}}</p>{{/if}}
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrfToken}}">
<fieldset><legend>{{t.signInLegend}}</legend>
<label for="email">{{t.email}}</label>
<input id="email" name="email" type="email" autocomplete="username" value="{{email}}">
<label for="password">{{t.password}}</label>
<input id="password" name="password" type="password" autocomplete="current-password">
</fieldset>
<div class="actions">
<button type="submit" name="decision" value="allow">{{t.allow}}</button>
<button type="submit" name="decision" value="deny" formnovalidate>{{t.deny}}</button>
</div></form>{{/layout}}`,

    error: '{{#> layout}}<h1>{{t.errorTitle}}</h1><p class="error">{{message}}</p>{{/layout}}'
};

const { compile } = pageEngine(internals.layout);
const views = { consent: compile(internals.consent), error: compile(internals.error) };

// Every authorization page: never cached, never framed, no script, no referrer leaving the
// site with the page's address (it carries the interaction), no sniffing.
export const pageHeaders: Readonly<Record<string, string>> = {
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    // same-origin, not no-referrer: with no-referrer a browser posts the consent form with
    // 'Origin: null', which the form's Origin check must refuse.
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff'
};

export interface ConsentPage {
    action: string;
    csrfToken: string;
    clientName: string;
    redirectUri: string | null;
    email?: string | undefined;
    error?: string | undefined;
}

export const consentPage = (page: ConsentPage): string => views.consent({
    t: texts,
    title: texts.pageTitle,
    clientAsks: texts.clientAsks(page.clientName),
    redirectNote: page.redirectUri ? texts.redirectNote(page.redirectUri) : null,
    error: page.error ?? null,
    action: page.action,
    csrfToken: page.csrfToken,
    email: page.email ?? ''
});

export const errorPage = (message: string): string => views.error({ t: texts, title: texts.errorTitle, message });
