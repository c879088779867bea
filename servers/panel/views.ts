import Handlebars from 'handlebars';

// The panel's pages, as Handlebars templates: `{{ }}` escapes every value for HTML, so a page
// never builds markup from a string (no `{{{ }}}` anywhere: test/panel-http.test.ts renders
// hostile names on every page). Compiled once, at start. The templates live here, not in
// files beside the code, because the build (tsc) copies no other files to dist/.

const internals = {
    layout: `<!doctype html>
<html lang="es-AR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{title}} · {{t.product}}</title>
<link rel="stylesheet" href="/panel/estilos.css">
<link rel="icon" href="/panel/icono.svg" type="image/svg+xml">
</head>
<body>
<a class="skip" href="#contenido">{{t.skipToContent}}</a>
<header class="top">
  <p class="brand">{{t.product}}</p>
  {{#if session}}
  <nav aria-label="{{t.mainNav}}"><a href="/panel" {{#if (eq page "cartera")}}aria-current="page"{{/if}}>{{t.portfolioTitle}}</a></nav>
  <form class="signout" method="post" action="/panel/salir">
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <span class="who">{{whoami}}</span>
    <button type="submit">{{t.signOutButton}}</button>
  </form>
  {{/if}}
</header>
<main id="contenido" tabindex="-1">
{{> @partial-block }}
</main>
</body>
</html>
`,

    signIn: `{{#> layout}}
<section class="card narrow" aria-labelledby="titulo">
  <h1 id="titulo">{{t.signInHeading}}</h1>
  {{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
  {{#if error}}<p class="error" role="alert" id="error-ingreso">{{error}}</p>{{/if}}
  <form method="post" action="/panel/ingresar" novalidate>
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <label for="email">{{t.email}}</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="{{email}}"
      {{#if error}}aria-invalid="true" aria-describedby="error-ingreso"{{/if}}>
    <label for="password">{{t.password}}</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required
      {{#if error}}aria-invalid="true" aria-describedby="error-ingreso"{{/if}}>
    <button type="submit">{{t.signInButton}}</button>
  </form>
</section>
{{/layout}}
`,

    portfolio: `{{#> layout}}
<h1>{{t.portfolioTitle}}</h1>
{{#if blocked}}
<p class="error" role="alert">{{blocked}}</p>
{{else}}
<p class="counts">{{counts}}</p>
<form class="filters" method="get" action="/panel" role="search" aria-label="{{t.filters}}">
  <div><label for="etiqueta">{{t.tagFilter}}</label>
  <select id="etiqueta" name="etiqueta"><option value="">{{t.any}}</option>
  {{#each filter.tags}}<option value="{{value}}" {{#if selected}}selected{{/if}}>{{value}}</option>{{/each}}</select></div>
  <div><label for="regimen">{{t.regimeFilter}}</label>
  <select id="regimen" name="regimen"><option value="">{{t.anyRegime}}</option>
  {{#each filter.regimes}}<option value="{{value}}" {{#if selected}}selected{{/if}}>{{label}}</option>{{/each}}</select></div>
  <div><label for="categoria">{{t.categoryFilter}}</label>
  <select id="categoria" name="categoria"><option value="">{{t.any}}</option>
  {{#each filter.categories}}<option value="{{value}}" {{#if selected}}selected{{/if}}>{{value}}</option>{{/each}}</select></div>
  <div class="filter-actions"><button type="submit">{{t.apply}}</button>{{#if filter.active}} <a href="/panel">{{t.clear}}</a>{{/if}}</div>
</form>
{{#unless total}}<p>{{t.emptyPortfolio}}</p>{{/unless}}
{{#each groups}}
<section aria-labelledby="grupo-{{id}}">
  <h2 id="grupo-{{id}}">{{title}} <span class="count">({{rows.length}})</span></h2>
  {{#if note}}<p class="note">{{note}}</p>{{/if}}
  <div class="table-wrap">
  <table>
    <thead><tr>
      <th scope="col">{{@root.t.columns.state}}</th>
      <th scope="col">{{@root.t.columns.name}}</th>
      <th scope="col">{{@root.t.columns.cuit}}</th>
      <th scope="col">{{@root.t.columns.tags}}</th>
      <th scope="col">{{@root.t.columns.regime}}</th>
      <th scope="col">{{@root.t.columns.lastSync}}</th>
    </tr></thead>
    <tbody>
    {{#each rows}}
    <tr>
      <td data-label="{{@root.t.columns.state}}"><span class="light light-{{light}}">{{lightLabel}}</span><span class="sentence">{{sentence}}</span></td>
      <th scope="row" data-label="{{@root.t.columns.name}}"><a href="{{href}}">{{name}}</a></th>
      <td data-label="{{@root.t.columns.cuit}}" class="nowrap">{{cuit}}</td>
      <td data-label="{{@root.t.columns.tags}}">{{#each tags}}<span class="tag">{{this}}</span> {{/each}}</td>
      <td data-label="{{@root.t.columns.regime}}">{{regime}}</td>
      <td data-label="{{@root.t.columns.lastSync}}">{{lastSync}}</td>
    </tr>
    {{/each}}
    </tbody>
  </table>
  </div>
</section>
{{/each}}
{{#if paging}}
<nav class="paging" aria-label="{{t.pages}}">
  {{#if paging.previous}}<a rel="prev" href="{{paging.previous}}">{{t.previous}}</a>{{/if}}
  <span>{{paging.label}}</span>
  {{#if paging.next}}<a rel="next" href="{{paging.next}}">{{t.next}}</a>{{/if}}
</nav>
{{/if}}
{{/if}}
{{/layout}}
`,

    error: `{{#> layout}}
<section class="card narrow" aria-labelledby="titulo">
  <h1 id="titulo">{{t.errorTitle}}</h1>
  <p class="error" role="alert">{{message}}</p>
  <p><a href="/panel">{{t.backToPortfolio}}</a></p>
</section>
{{/layout}}
`
};

const engine = Handlebars.create();
engine.registerHelper('eq', (a: unknown, b: unknown) => a === b);
engine.registerPartial('layout', internals.layout);

// Other pages' modules (client-views.ts) compile theirs on the same engine: same layout, same escaping.
export const compile = (source: string) => engine.compile(source, { noEscape: false });

export const views = {
    signIn: compile(internals.signIn),
    portfolio: compile(internals.portfolio),
    error: compile(internals.error)
};

export type PanelView = keyof typeof views;
