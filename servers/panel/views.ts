import { pageEngine } from '../pages/engine.js';
import { copyPartials } from './copy-once.js';

// The panel's pages, as Handlebars templates (servers/pages/engine.ts: every value escaped).

// "Página N de M" with its links, as la cartera and the agenda page it.
const paging = `{{#if paging}}
<nav class="paging" aria-label="{{t.pages}}">
  {{#if paging.previous}}<a rel="prev" href="{{paging.previous}}">{{t.previous}}</a>{{/if}}
  <span>{{paging.label}}</span>
  {{#if paging.next}}<a rel="next" href="{{paging.next}}">{{t.next}}</a>{{/if}}
</nav>
{{/if}}`;

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
  <nav aria-label="{{t.mainNav}}">
    <a href="/panel" {{#if (eq page "portfolio")}}aria-current="page"{{/if}}>{{t.portfolioTitle}}</a>
    <a href="/panel/agenda" {{#if (eq page "agenda")}}aria-current="page"{{/if}}>{{a.agendaTitle}}</a>
    <a href="/panel/suscripcion" {{#if (eq page "subscription")}}aria-current="page"{{/if}}>{{t.subscriptionTitle}}</a>
    <a href="/panel/cuenta" {{#if (eq page "account")}}aria-current="page"{{/if}}>{{t.accountTitle}}</a>
    <a href="/panel/tokens" {{#if (eq page "tokens")}}aria-current="page"{{/if}}>{{t.navTokens}}</a>
    <a href="/panel/conexiones" {{#if (eq page "connections")}}aria-current="page"{{/if}}>{{t.navConnections}}</a>
    <a href="/panel/etiquetas" {{#if (eq page "tags")}}aria-current="page"{{/if}}>{{t.navTags}}</a>
    <a href="/panel/equipo" {{#if (eq page "team")}}aria-current="page"{{/if}}>{{t.navTeam}}</a>
  </nav>
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
{{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
{{#if newClient}}<p class="page-actions"><a href="{{newClient.href}}">{{newClient.label}}</a></p>{{/if}}
<p><a href="/panel/clientes/importar">{{t.importClients}}</a></p>
<form class="filters" method="get" action="/panel" role="search" aria-label="{{t.filters}}">
  <div class="search"><label for="q">{{t.search}}</label>
  <input id="q" name="q" type="search" value="{{filter.q}}" maxlength="{{filter.searchLength}}" aria-describedby="q-ayuda">
  <span class="hint" id="q-ayuda">{{t.searchHint}}</span></div>
  <div><label for="estado">{{t.stateFilter}}</label>
  <select id="estado" name="estado"><option value="">{{t.any}}</option>
  {{#each filter.states}}<option value="{{value}}" {{#if selected}}selected{{/if}}>{{label}}</option>{{/each}}</select></div>
  <div><label for="atencion">{{t.attentionFilter}}</label>
  <select id="atencion" name="atencion"><option value="">{{t.anyRegime}}</option>
  {{#each filter.attention}}<option value="{{value}}" {{#if selected}}selected{{/if}}>{{label}}</option>{{/each}}</select></div>
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
<section class="summary" aria-label="{{t.summary}}">
  <p class="counts" id="resumen">{{counts.line}}</p>
  <ul class="tally">
    {{#each counts.groups}}<li><a href="#grupo-{{id}}">{{label}}</a>: <strong>{{count}}</strong></li>{{/each}}
    {{#each counts.lights}}<li><span class="light light-{{light}}">{{label}}</span> <strong>{{count}}</strong></li>{{/each}}
  </ul>
</section>
{{#unless total}}<p>{{#if filter.active}}{{t.nothingMatches}}{{else}}{{t.emptyPortfolio}}{{/if}}</p>{{/unless}}
{{#each groups}}
<section aria-labelledby="grupo-{{id}}">
  <h2 id="grupo-{{id}}">{{title}} <span class="count">({{total}})</span></h2>
  {{#if note}}<p class="note">{{note}}</p>{{/if}}
  <div class="table-wrap">
  <table>
    <thead><tr>
      {{#if @root.selection}}<th scope="col">{{@root.t.select}}</th>{{/if}}
      <th scope="col">{{@root.t.columns.state}}</th>
      <th scope="col">{{@root.t.columns.name}}</th>
      <th scope="col">{{@root.t.columns.cuit}}</th>
      <th scope="col">{{@root.t.columns.tags}}</th>
      <th scope="col">{{@root.t.columns.regime}}</th>
      <th scope="col">{{@root.a.capColumn}}</th>
      <th scope="col">{{@root.t.columns.lastSync}}</th>
    </tr></thead>
    <tbody>
    {{#each rows}}
    <tr>
      {{#if @root.selection}}<td data-label="{{@root.t.select}}"><input type="checkbox" name="cuit" value="{{cuit}}" form="seleccion" aria-label="{{@root.t.select}} {{name}}"></td>{{/if}}
      <td data-label="{{@root.t.columns.state}}"><span class="light light-{{light}}">{{lightLabel}}</span><span class="sentence">{{sentence}}</span></td>
      <th scope="row" data-label="{{@root.t.columns.name}}"><a href="{{href}}">{{name}}</a></th>
      <td data-label="{{@root.t.columns.cuit}}" class="nowrap">{{cuit}}</td>
      <td data-label="{{@root.t.columns.tags}}">{{#each tags}}<span class="tag">{{this}}</span> {{/each}}</td>
      <td data-label="{{@root.t.columns.regime}}">{{regime}}</td>
      <td data-label="{{@root.a.capColumn}}" class="cap">{{#if cap}}<svg class="cap-meter" width="60" height="10" viewBox="0 0 60 10" aria-hidden="true"><rect class="cap-track" width="60" height="10" rx="2"/><rect class="cap-{{cap.level}}" width="{{cap.width}}" height="10" rx="2"/></svg> <span title="{{cap.title}}">{{cap.label}}</span>{{/if}}</td>
      <td data-label="{{@root.t.columns.lastSync}}">{{lastSync}}</td>
    </tr>
    {{/each}}
    </tbody>
  </table>
  </div>
</section>
{{/each}}
{{#if selection}}{{#if total}}
<form id="seleccion" class="filters" method="post" action="/panel/etiquetas/asignar" aria-label="{{t.selectionActions}}">
  <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
  <input type="hidden" name="volver" value="{{selection.back}}">
  <div><label for="etiqueta-seleccion">{{t.selectionTags}}</label>
  <select id="etiqueta-seleccion" name="etiqueta">{{#each filter.tags}}<option value="{{value}}">{{value}}</option>{{/each}}</select></div>
  <div class="filter-actions"><button type="submit" name="accion" value="asignar">{{t.assignTag}}</button>
  <button type="submit" name="accion" value="quitar">{{t.unassignTag}}</button> <a href="/panel/etiquetas">{{t.manageTags}}</a></div>
  {{#if selection.members.length}}
  <div><label for="miembro-seleccion">{{t.selectionMember}}</label>
  <select id="miembro-seleccion" name="usuario">{{#each selection.members}}<option value="{{id}}">{{email}}</option>{{/each}}</select></div>
  <div class="filter-actions"><button type="submit" formaction="/panel/equipo/asignar" name="accion" value="asignar">{{t.assignMember}}</button></div>
  {{/if}}
</form>
{{/if}}{{/if}}
${paging}
{{/layout}}
`,

    account: `{{#> layout}}
<section class="card narrow" aria-labelledby="titulo">
  <h1 id="titulo">{{t.accountTitle}}</h1>
  <p>{{whoami}}</p>
  <h2>{{a.calendarHeading}}</h2>
  <p class="note">{{a.calendarExplanation}}</p>
  {{#if calendar.notice}}<p class="notice" role="status">{{calendar.notice}}</p>{{/if}}
  {{#if calendar.address}}
  <p class="notice" role="status">{{a.calendarCreated}}</p>
  <label for="calendario">{{a.calendarAddress}}</label>
  <input id="calendario" class="secret" type="text" readonly value="{{calendar.address}}" autocomplete="off" spellcheck="false">
  {{/if}}
  <form method="post" action="/panel/cuenta/calendario">
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <button type="submit">{{#if calendar.address}}{{a.calendarReplace}}{{else}}{{a.calendarCreate}}{{/if}}</button>
  </form>
  <form method="post" action="/panel/cuenta/calendario/revocar">
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <button type="submit" class="secondary">{{a.calendarRevoke}}</button>
  </form>
  <h2>{{t.changePassword}}</h2>
  <p class="note" id="clave-reglas">{{rules}}</p>
  {{#if error}}<p class="error" role="alert" id="error-clave">{{error}}</p>{{/if}}
  {{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
  <form method="post" action="/panel/cuenta" novalidate>
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <input type="text" name="usuario" autocomplete="username" value="{{email}}" hidden>
    <label for="actual">{{t.currentPassword}}</label>
    <input id="actual" name="actual" type="password" autocomplete="current-password" required
      {{#if error}}aria-invalid="true" aria-describedby="error-clave"{{/if}}>
    <label for="nueva">{{t.newPassword}}</label>
    <input id="nueva" name="nueva" type="password" autocomplete="new-password" required aria-describedby="clave-reglas">
    <label for="repetida">{{t.repeatPassword}}</label>
    <input id="repetida" name="repetida" type="password" autocomplete="new-password" required>
    <button type="submit">{{t.changePasswordButton}}</button>
  </form>
</section>
{{/layout}}
`,

    subscription: `{{#> layout}}
<section class="card" aria-labelledby="titulo">
  <h1 id="titulo">{{t.subscriptionTitle}}</h1>
  <p class="state state-{{state}}" {{#unless active}}role="alert"{{/unless}}><strong>{{stateLabel}}</strong></p>
  <p>{{explanation}}</p>
  {{#if todo}}<h2>{{t.whatToDo}}</h2><p>{{todo}}</p>{{/if}}
  <p>{{billed}}</p>
  {{#unless active}}<p class="note">{{t.accessReturns}}</p>{{/unless}}
</section>
{{/layout}}
`,

    agenda: `{{#> layout}}
<h1>{{a.agendaTitle}}</h1>
<form class="filters" method="get" action="/panel/agenda" aria-label="{{a.agendaForm}}">
  <div><label for="desde">{{a.from}}</label><input id="desde" name="desde" type="date" value="{{desde}}"></div>
  <div><label for="hasta">{{a.to}}</label><input id="hasta" name="hasta" type="date" value="{{hasta}}"></div>
  <div class="filter-actions"><button type="submit">{{a.show}}</button></div>
</form>
{{#if error}}<p class="error" role="alert">{{error}}</p>{{else}}
<p class="counts">{{range}}</p>
{{#each groups}}
<section class="agenda-day" aria-labelledby="{{id}}">
  <h2 id="{{id}}">{{heading}}</h2>
  <ul class="agenda">
  {{#each items}}<li class="agenda-{{kind}}"><a href="{{href}}">{{name}}</a> <span class="cuit">{{cuit}}</span><span class="sentence">{{description}}{{#if amount}} · {{@root.a.amount}}: {{amount}}{{/if}}</span></li>
  {{/each}}
  </ul>
</section>
{{else}}<p>{{a.agendaEmpty}}</p>
{{/each}}
${paging}
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

// Other pages' modules (client-views.ts) compile theirs on the same engine: same layout, same escaping.
export const { compile } = pageEngine(internals.layout, copyPartials);

export const views = {
    signIn: compile(internals.signIn),
    portfolio: compile(internals.portfolio),
    account: compile(internals.account),
    subscription: compile(internals.subscription),
    agenda: compile(internals.agenda),
    error: compile(internals.error)
};

export type PanelView = keyof typeof views;
