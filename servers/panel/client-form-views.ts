import { compile } from './views.js';

// The client forms (create, edit, delete), on the panel's engine and layout: `{{ }}` escapes
// every value. Each field shows its refusal beside it (aria-invalid, described by it) and
// keeps what was typed, except the key: a password field never carries a value back.

// One field's markup; `name` is the contract's field name (the form posts what the API takes).
const field = (name: string, options: { type?: string; autocomplete?: string; secret?: boolean; maxlength?: number } = {}): string => `<div class="field">
  <label for="campo-${name}">{{f.labels.${name}}}</label>
  <input id="campo-${name}" name="${name}" type="${options.secret ? 'password' : options.type ?? 'text'}"${options.secret ? '' : ` value="{{values.${name}}}"`}
    autocomplete="${options.autocomplete ?? 'off'}"${options.maxlength ? ` maxlength="${options.maxlength}"` : ''}
    aria-describedby="{{#if hints.${name}}}ayuda-${name} {{/if}}{{#if errors.${name}}}error-${name}{{/if}}" {{#if errors.${name}}}aria-invalid="true"{{/if}}>
  {{#if hints.${name}}}<span class="hint" id="ayuda-${name}">{{hints.${name}}}</span>{{/if}}
  {{#if errors.${name}}}<p class="field-error" id="error-${name}">{{errors.${name}}}</p>{{/if}}
</div>`;

const internals = {
    person: `${field('nombre', { autocomplete: 'off', maxlength: 200 })}
${field('apellido', { maxlength: 200 })}
${field('clave_arca', { secret: true, autocomplete: 'new-password' })}`,

    entity: `${field('razon_social', { maxlength: 255 })}
${field('representante', { maxlength: 13 })}`,

    contact: `${field('email', { type: 'email', maxlength: 254 })}
${field('telefono', { type: 'tel', maxlength: 60 })}`,

    // A form page's start (its heading, `top`) and end: the refusals, the CSRF field, submit and cancel.
    form: (top: string, fields: string): string => `{{#> layout}}
<section class="card client-form" aria-labelledby="titulo">
  ${top}
  {{#if general}}<p class="error" role="alert" id="error-general">{{general}}</p>{{/if}}
  {{#if fieldErrors}}<p class="error" role="alert">{{f.errorsIntro}} {{#each fieldErrors}}<a href="#campo-{{this}}">{{lookup @root.f.labels this}}</a>{{#unless @last}}, {{/unless}}{{/each}}.</p>{{/if}}
  <form method="post" action="{{action}}" novalidate>
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    ${fields}
    <button type="submit">{{submit}}</button> <a href="{{back}}">{{f.cancel}}</a>
  </form>
</section>
{{/layout}}
`
};

const create = internals.form(`<p class="crumbs"><a href="/panel">{{c.backToPortfolio}}</a></p>
  <h1 id="titulo">{{f.newClient}}</h1>
  <p>{{f.newIntro}}</p>`, `<fieldset {{#if errors.tipo}}aria-describedby="error-tipo"{{/if}}>
      <legend>{{f.tipo}}</legend>
      {{#each tipos}}<label class="choice"><input type="radio" name="tipo" value="{{value}}" {{#if checked}}checked{{/if}}> {{label}}</label>{{/each}}
      {{#if errors.tipo}}<p class="field-error" id="error-tipo">{{errors.tipo}}</p>{{/if}}
    </fieldset>
    ${field('cuit', { maxlength: 13 })}
    <fieldset><legend>{{f.person}}</legend>
    ${internals.person}
    </fieldset>
    <fieldset><legend>{{f.entity}}</legend>
    ${internals.entity}
    </fieldset>
    <fieldset><legend>{{f.contact}}</legend>
    ${internals.contact}
    </fieldset>`);

const edit = internals.form(`<p class="crumbs"><a href="{{back}}">{{name}}</a></p>
  <h1 id="titulo">{{title}} <span class="cuit">{{c.cuit}} {{cuit}}</span></h1>`, `{{#if person}}${internals.person}{{else}}${internals.entity}{{/if}}
    <p class="note">{{f.contactClear}}</p>
    ${internals.contact}`);

const remove = `{{#> layout}}
<section class="card narrow" aria-labelledby="titulo">
  <h1 id="titulo">{{title}}</h1>
  {{#if general}}<p class="error" role="alert">{{general}}</p>{{/if}}
  <p>{{question}}</p>
  <p>{{f.deleteGoes}}</p>
  <ul>{{#each cascade}}<li>{{this}}</li>{{/each}}<li>{{#if person}}{{f.deleteAlso}}{{else}}{{f.deleteAlsoEntity}}{{/if}}</li></ul>
  {{#if person}}<p class="note">{{f.representativeRule}}</p>{{/if}}
  <form method="post" action="{{action}}">
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <button type="submit" class="danger">{{f.confirmDelete}}</button> <a href="{{back}}">{{f.cancel}}</a>
  </form>
</section>
{{/layout}}
`;

export const clientFormViews = {
    create: compile(create),
    edit: compile(edit),
    remove: compile(remove)
};
