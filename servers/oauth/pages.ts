import { texts } from './texts.js';

// The authorization pages, in Spanish, plain HTML forms that work without JavaScript.

const internals = {
    escape: (value: string): string => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!),

    style: [
        'body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f6f8;color:#1d2733;margin:0;padding:2rem 1rem}',
        'main{max-width:28rem;margin:0 auto;background:#fff;border-radius:.75rem;box-shadow:0 1px 4px rgba(0,0,0,.12);padding:1.5rem 1.75rem}',
        'h1{font-size:1.35rem;margin:0 0 1rem}',
        'ul{padding-left:1.25rem}',
        'label{display:block;margin:.75rem 0 .25rem;font-weight:600}',
        'input{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #b8c2cc;border-radius:.4rem;font-size:1rem}',
        'fieldset{border:0;padding:0;margin:1rem 0 0}legend{font-weight:600}',
        '.actions{display:flex;gap:.75rem;margin-top:1.25rem}',
        'button{flex:1;padding:.65rem;font-size:1rem;border-radius:.4rem;border:1px solid #1f5fbf;cursor:pointer}',
        'button[value=allow]{background:#1f5fbf;color:#fff}button[value=deny]{background:#fff;color:#1f5fbf}',
        '.error{background:#fdecea;color:#8a1c12;border-radius:.4rem;padding:.6rem .8rem}',
        '.note{color:#56636f;font-size:.9rem}'
    ].join(''),

    layout(title: string, body: string): string {

        return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${internals.escape(title)}</title><style>${internals.style}</style></head><body><main>${body}</main></body></html>`;
    }
};

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

export const consentPage = (page: ConsentPage): string => {

    const text = texts;
    const error = page.error ? `<p class="error" role="alert">${internals.escape(page.error)}</p>` : '';
    const redirect = page.redirectUri ? `<p class="note">${internals.escape(text.redirectNote(page.redirectUri))}</p>` : '';
    return internals.layout(text.pageTitle, [
        `<h1>${internals.escape(text.heading)}</h1>`,
        `<p>${internals.escape(text.clientAsks(page.clientName))}</p>`,
        `<p>${internals.escape(text.scopeTitle)}</p>`,
        `<ul>${text.scopeItems.map((item) => `<li>${internals.escape(item)}</li>`).join('')}</ul>`,
        `<p><strong>${internals.escape(text.scopeNoWrite)}</strong></p>`,
        redirect,
        error,
        `<form method="post" action="${internals.escape(page.action)}">`,
        `<input type="hidden" name="csrf" value="${internals.escape(page.csrfToken)}">`,
        `<fieldset><legend>${internals.escape(text.signInLegend)}</legend>`,
        `<label for="email">${internals.escape(text.email)}</label>`,
        `<input id="email" name="email" type="email" autocomplete="username" value="${internals.escape(page.email ?? '')}">`,
        `<label for="password">${internals.escape(text.password)}</label>`,
        '<input id="password" name="password" type="password" autocomplete="current-password">',
        '</fieldset>',
        '<div class="actions">',
        `<button type="submit" name="decision" value="allow">${internals.escape(text.allow)}</button>`,
        `<button type="submit" name="decision" value="deny" formnovalidate>${internals.escape(text.deny)}</button>`,
        '</div></form>'
    ].join(''));
};

export const errorPage = (message: string): string => {

    return internals.layout(texts.errorTitle, `<h1>${internals.escape(texts.errorTitle)}</h1><p class="error">${internals.escape(message)}</p>`);
};
