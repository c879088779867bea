import { compile } from './views.js';

// The estudio's pages (API tokens, connected assistants), on the panel's engine and layout:
// `{{ }}` escapes every value. A new token shows once, with copy buttons (copy-once.ts).

const internals = {
    confirm: `{{#> layout}}
<section class="card narrow" aria-labelledby="titulo">
  <h1 id="titulo">{{title}}</h1>
  <p>{{question}}</p>
  <form method="post" action="{{action}}">
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    {{#if field}}<input type="hidden" name="{{field.name}}" value="{{field.value}}">{{/if}}
    <button type="submit">{{#if confirmLabel}}{{confirmLabel}}{{else}}{{e.confirmRevoke}}{{/if}}</button> <a href="{{back}}">{{e.cancel}}</a>
  </form>
</section>
{{/layout}}
`,

    tokens: `{{#> layout}}
<h1>{{e.tokensTitle}}</h1>
<p>{{e.tokensIntro}}</p>
{{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
{{#if created}}
{{#> copyOnce title=e.tokenCreated}}
  {{> copyField id="token-valor" label=e.yourToken value=created.token}}
  {{> copyField id="token-curl" label=e.curlLine value=created.curl}}
{{/copyOnce}}
{{/if}}
<section class="card narrow" aria-labelledby="generar">
  <h2 id="generar">{{e.createToken}}</h2>
  {{#if error}}<p class="error" role="alert" id="error-token">{{error}}</p>{{/if}}
  <form method="post" action="/panel/tokens" novalidate>
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <label for="nombre">{{e.tokenName}}</label>
    <input id="nombre" name="nombre" type="text" maxlength="200" required value="{{name}}" aria-describedby="nombre-ayuda{{#if error}} error-token{{/if}}"
      {{#if error}}aria-invalid="true"{{/if}}>
    <span class="hint" id="nombre-ayuda">{{e.tokenNameHint}}</span>
    <button type="submit">{{e.createToken}}</button>
  </form>
</section>
{{#if tokens.length}}
<div class="table-wrap"><table>
  <thead><tr><th scope="col">{{e.tokenColumns.name}}</th><th scope="col">{{e.tokenColumns.created}}</th><th scope="col">{{e.tokenColumns.lastUsed}}</th><th scope="col">{{e.tokenColumns.actions}}</th></tr></thead>
  <tbody>{{#each tokens}}<tr>
    <th scope="row" data-label="{{@root.e.tokenColumns.name}}">{{name}}</th>
    <td data-label="{{@root.e.tokenColumns.created}}">{{created}}</td>
    <td data-label="{{@root.e.tokenColumns.lastUsed}}">{{lastUsed}}</td>
    <td data-label="{{@root.e.tokenColumns.actions}}"><a href="{{revoke}}" aria-label="{{revokeLabel}}">{{@root.e.revoke}}</a></td>
  </tr>{{/each}}</tbody>
</table></div>
{{else}}<p>{{e.noTokens}}</p>{{/if}}
{{/layout}}
`,

    tags: `{{#> layout}}
<h1>{{e.tagsTitle}}</h1>
<p>{{e.tagsIntro}}</p>
{{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
{{#if error}}<p class="error" role="alert" id="error-etiqueta">{{error}}</p>{{/if}}
<section class="card narrow" aria-labelledby="nueva">
  <h2 id="nueva">{{e.newTag}}</h2>
  <form method="post" action="/panel/etiquetas" novalidate>
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <label for="nombre">{{e.tagName}}</label>
    <input id="nombre" name="nombre" type="text" maxlength="100" value="{{name}}" {{#if error}}aria-describedby="error-etiqueta"{{/if}}>
    <label for="color">{{e.tagColor}}</label>
    <input id="color" name="color" type="color" value="{{#if color}}{{color}}{{else}}#336699{{/if}}">
    <button type="submit">{{e.createTag}}</button>
  </form>
</section>
{{#if tags.length}}
<div class="table-wrap"><table>
  <thead><tr><th scope="col">{{e.tagColumns.name}}</th><th scope="col">{{e.tagColumns.edit}}</th><th scope="col">{{e.tagColumns.actions}}</th></tr></thead>
  <tbody>{{#each tags}}<tr>
    <th scope="row" data-label="{{@root.e.tagColumns.name}}"><span class="tag">{{nombre}}</span> <code>{{color}}</code></th>
    <td data-label="{{@root.e.tagColumns.edit}}">
      <form method="post" action="/panel/etiquetas/editar" class="tag-edit">
        <input type="hidden" name="{{@root.crumbKey}}" value="{{@root.crumb}}">
        <input type="hidden" name="etiqueta" value="{{nombre}}">
        <label for="nombre-{{@index}}">{{@root.e.tagName}}</label>
        <input id="nombre-{{@index}}" name="nombre" type="text" maxlength="100" value="{{nombre}}">
        <label for="color-{{@index}}">{{@root.e.tagColor}}</label>
        <input id="color-{{@index}}" name="color" type="color" value="{{color}}">
        <button type="submit" aria-label="{{@root.e.saveTag}} {{nombre}}">{{@root.e.saveTag}}</button>
      </form>
    </td>
    <td data-label="{{@root.e.tagColumns.actions}}"><a href="{{remove}}" aria-label="{{@root.e.deleteTag}} {{nombre}}">{{@root.e.deleteTag}}</a></td>
  </tr>{{/each}}</tbody>
</table></div>
{{else}}<p>{{e.noTags}}</p>{{/if}}
{{/layout}}
`,

    connections: `{{#> layout}}
<h1>{{e.connectionsTitle}}</h1>
<p>{{e.connectionsIntro}}</p>
{{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
{{#if connections.length}}
<div class="table-wrap"><table>
  <thead><tr><th scope="col">{{e.connectionColumns.name}}</th><th scope="col">{{e.connectionColumns.when}}</th><th scope="col">{{e.connectionColumns.scope}}</th><th scope="col">{{e.connectionColumns.actions}}</th></tr></thead>
  <tbody>{{#each connections}}<tr>
    <th scope="row" data-label="{{@root.e.connectionColumns.name}}">{{name}}</th>
    <td data-label="{{@root.e.connectionColumns.when}}">{{when}}</td>
    <td data-label="{{@root.e.connectionColumns.scope}}">{{#each scopes}}<code>{{this}}</code> {{/each}}</td>
    <td data-label="{{@root.e.connectionColumns.actions}}"><a href="{{revoke}}" aria-label="{{revokeLabel}}">{{@root.e.revoke}}</a></td>
  </tr>{{/each}}</tbody>
</table></div>
{{else}}<p>{{e.noConnections}}</p>{{/if}}
{{/layout}}
`
};

export const estudioViews = {
    confirm: compile(internals.confirm),
    tokens: compile(internals.tokens),
    tags: compile(internals.tags),
    connections: compile(internals.connections)
};
