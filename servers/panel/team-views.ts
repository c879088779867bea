import { compile } from './views.js';

// The team pages on the panel's engine and layout (`{{ }}` escapes every value). The link is
// shown once, in a read-only field with a copy button (copy-once.ts).

const link = `{{#if created}}
{{#> copyOnce title=created.notice}}
  {{> copyField id="enlace-valor" label=e.link value=created.link}}
  <p class="note">{{created.expires}}</p>
{{/copyOnce}}
{{/if}}`;

const internals = {
    team: `{{#> layout}}
<h1>{{e.teamTitle}}</h1>
<p>{{e.teamIntro}}</p>
{{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
${link}
<div class="table-wrap"><table>
  <thead><tr><th scope="col">{{e.columns.email}}</th><th scope="col">{{e.columns.role}}</th><th scope="col">{{e.columns.cuits}}</th><th scope="col">{{e.columns.state}}</th><th scope="col">{{e.manage}}</th></tr></thead>
  <tbody>{{#each users}}<tr>
    <th scope="row" data-label="{{@root.e.columns.email}}">{{email}}</th>
    <td data-label="{{@root.e.columns.role}}">{{roleLabel}}</td>
    <td data-label="{{@root.e.columns.cuits}}">{{cuits}}</td>
    <td data-label="{{@root.e.columns.state}}">{{state}}</td>
    <td><a href="{{href}}" aria-label="{{manageLabel}}">{{@root.e.manage}}</a></td>
  </tr>{{/each}}</tbody>
</table></div>
<section class="card narrow" aria-labelledby="agregar">
  <h2 id="agregar">{{e.inviteTitle}}</h2>
  <p class="hint" id="agregar-ayuda">{{e.inviteHint}}</p>
  {{#if error}}<p class="error" role="alert" id="error-equipo">{{error}}</p>{{/if}}
  <form method="post" action="/panel/equipo" novalidate>
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <label for="email">{{e.email}}</label>
    <input id="email" name="email" type="email" maxlength="254" required value="{{email}}" autocomplete="off"
      aria-describedby="agregar-ayuda{{#if error}} error-equipo{{/if}}" {{#if error}}aria-invalid="true"{{/if}}>
    <label for="rol">{{e.role}}</label>
    <select id="rol" name="rol">
      <option value="member" {{#if (eq role "member")}}selected{{/if}}>{{e.roles.member}}</option>
      <option value="owner" {{#if (eq role "owner")}}selected{{/if}}>{{e.roles.owner}}</option>
    </select>
    <button type="submit">{{e.invite}}</button>
  </form>
</section>
{{/layout}}
`,

    member: `{{#> layout}}
<p><a href="/panel/equipo">{{e.back}}</a></p>
<h1>{{title}}</h1>
{{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
{{#if error}}<p class="error" role="alert" id="error-usuario">{{error}}</p>{{/if}}
${link}
<section class="card narrow" aria-labelledby="rol-titulo">
  <h2 id="rol-titulo">{{e.changeRole}}</h2>
  <form method="post" action="{{base}}/rol">
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <label for="rol">{{e.role}}</label>
    <select id="rol" name="rol">
      <option value="member" {{#if (eq user.role "member")}}selected{{/if}}>{{e.roles.member}}</option>
      <option value="owner" {{#if (eq user.role "owner")}}selected{{/if}}>{{e.roles.owner}}</option>
    </select>
    <button type="submit">{{e.saveRole}}</button>
  </form>
</section>
{{#if user.pending}}
<section class="card narrow" aria-labelledby="enlace-nuevo">
  <h2 id="enlace-nuevo">{{e.newLink}}</h2>
  <p>{{e.newLinkHint}}</p>
  <form method="post" action="{{base}}/enlace">
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <button type="submit">{{e.newLink}}</button>
  </form>
</section>
{{/if}}
<section aria-labelledby="asignados">
  <h2 id="asignados">{{e.assignmentsTitle}}</h2>
  {{#if (eq user.role "owner")}}<p>{{e.ownerSeesAll}}</p>{{else}}
  <form class="card narrow" method="post" action="{{base}}/asignar">
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <input type="hidden" name="accion" value="asignar">
    <label for="cuit-uno">{{e.assignOne}}</label>
    <input id="cuit-uno" name="cuit" type="text" inputmode="numeric" maxlength="13" placeholder="NN-NNNNNNNN-N">
    <button type="submit">{{e.assign}}</button>
  </form>
  {{#if clients.length}}
  <form method="post" action="{{base}}/asignar">
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <p class="hint">{{e.pick}}</p>
    <div class="table-wrap"><table>
      <thead><tr><th scope="col">{{e.cuitColumns.pick}}</th><th scope="col">{{e.cuitColumns.name}}</th><th scope="col">{{e.cuitColumns.cuit}}</th><th scope="col">{{e.cuitColumns.assigned}}</th></tr></thead>
      <tbody>{{#each clients}}<tr>
        <td><input type="checkbox" name="cuit" value="{{cuit}}" id="marcar-{{cuit}}" aria-label="{{displayName}} {{cuit}}"></td>
        <th scope="row" data-label="{{@root.e.cuitColumns.name}}"><label for="marcar-{{cuit}}">{{displayName}}</label></th>
        <td data-label="{{@root.e.cuitColumns.cuit}}">{{cuit}}</td>
        <td data-label="{{@root.e.cuitColumns.assigned}}">{{#if assigned}}{{@root.e.yes}}{{else}}{{@root.e.no}}{{/if}}</td>
      </tr>{{/each}}</tbody>
    </table></div>
    {{#if more}}<p class="note">{{e.moreClients}}</p>{{/if}}
    <button type="submit" name="accion" value="asignar">{{e.assignChecked}}</button>
    <button type="submit" name="accion" value="quitar">{{e.unassignChecked}}</button>
  </form>
  {{else}}<p>{{e.noClients}}</p>{{/if}}
  {{/if}}
</section>
<p><a href="{{base}}/borrar">{{e.remove}}</a></p>
{{/layout}}
`,

    invitation: `{{#> layout}}
<section class="card narrow" aria-labelledby="titulo">
  <h1 id="titulo">{{e.invitationTitle}}</h1>
  <p>{{e.invitationIntro}}</p>
  {{#if error}}<p class="error" role="alert" id="error-clave">{{error}}</p>{{/if}}
  <form method="post" action="{{action}}" novalidate>
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <label for="email">{{e.email}}</label>
    <input id="email" name="email" type="email" autocomplete="username" readonly value="{{email}}">
    <label for="password">{{e.password}}</label>
    <input id="password" name="password" type="password" autocomplete="new-password" required aria-describedby="clave-ayuda{{#if error}} error-clave{{/if}}"
      {{#if error}}aria-invalid="true"{{/if}}>
    <span class="hint" id="clave-ayuda">{{rules}}</span>
    <label for="repetida">{{e.repeated}}</label>
    <input id="repetida" name="repetida" type="password" autocomplete="new-password" required>
    <button type="submit">{{e.setPassword}}</button>
  </form>
</section>
{{/layout}}
`
};

export const teamViews = {
    team: compile(internals.team),
    member: compile(internals.member),
    invitation: compile(internals.invitation)
};
