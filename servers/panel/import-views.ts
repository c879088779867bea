import { compile } from './views.js';

// The import's pages (docs/panel.md, Importar clientes), on the panel's engine and layout:
// `{{ }}` escapes every value, the rows' cells and errors included. No page carries a key: the
// preview shows each row's CUIT, type and name, and the confirmation form only the import's id.

const internals = {
    refused: `{{#if refused.length}}
<section aria-labelledby="con-errores">
  <h2 id="con-errores">{{heading}}</h2>
  <div class="table-wrap"><table id="filas-con-errores">
    <thead><tr><th scope="col">{{i.columns.row}}</th><th scope="col">{{i.columns.cuit}}</th><th scope="col">{{i.columns.errors}}</th></tr></thead>
    <tbody>{{#each refused}}<tr>
      <th scope="row" data-label="{{@root.i.columns.row}}">{{row}}</th>
      <td data-label="{{@root.i.columns.cuit}}" class="nowrap">{{#if cuit}}{{cuit}}{{else}}{{@root.i.noCell}}{{/if}}</td>
      <td data-label="{{@root.i.columns.errors}}"><ul class="errors">{{#each errors}}<li>{{this}}</li>{{/each}}</ul></td>
    </tr>{{/each}}</tbody>
  </table></div>
</section>
{{/if}}`,

    upload: `{{#> layout}}
<h1>{{i.title}}</h1>
<p>{{i.intro}}</p>
{{#if error}}<p class="error" role="alert" id="error-archivo">{{error}}</p>{{/if}}
<section class="card narrow" aria-labelledby="subir">
  <h2 id="subir">{{i.uploadHeading}}</h2>
  <form method="post" action="/panel/clientes/importar" enctype="multipart/form-data">
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <label for="archivo">{{i.file}}</label>
    <input id="archivo" name="archivo" type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" required
      aria-describedby="formatos{{#if error}} error-archivo{{/if}}" {{#if error}}aria-invalid="true"{{/if}}>
    <span class="hint" id="formatos">{{i.formatsNote}}</span>
    <button type="submit">{{i.upload}}</button>
  </form>
</section>
<section aria-labelledby="plantillas">
  <h2 id="plantillas">{{i.templates}}</h2>
  <ul>
    <li><a href="/panel/clientes/importar/plantilla.csv" download>{{i.csvTemplate}}</a></li>
    <li><a href="/panel/clientes/importar/plantilla.xlsx" download>{{i.xlsxTemplate}}</a></li>
  </ul>
  <h3>{{i.columnsHeading}}</h3>
  <p>{{i.columnsIntro}}</p>
  <dl>{{#each i.columnHelp}}<dt>{{name}}</dt><dd>{{help}}</dd>{{/each}}</dl>
</section>
{{/layout}}
`,

    preview: `{{#> layout}}
<h1>{{i.previewTitle}}</h1>
{{#if fileLine}}<p>{{fileLine}}</p>{{/if}}
<p class="counts" id="resumen-importacion" role="status">{{summary}}</p>
{{#if id}}
<p>{{billing}}</p>
<form method="post" action="/panel/clientes/importar/confirmar">
  <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
  <input type="hidden" name="importacion" value="{{id}}">
  <button type="submit">{{confirmLabel}}</button> <a href="/panel/clientes/importar">{{i.another}}</a>
</form>
<p class="note">{{i.confirmNote}}</p>
{{else}}
<p class="error" role="alert">{{i.nothingToImport}}</p>
<p><a href="/panel/clientes/importar">{{i.another}}</a></p>
{{/if}}
REFUSED
{{#if accepted.length}}
<section aria-labelledby="se-importan">
  <h2 id="se-importan">{{i.acceptedHeading}}</h2>
  <div class="table-wrap"><table id="filas-a-importar">
    <thead><tr><th scope="col">{{i.columns.row}}</th><th scope="col">{{i.columns.cuit}}</th><th scope="col">{{i.columns.tipo}}</th><th scope="col">{{i.columns.name}}</th></tr></thead>
    <tbody>{{#each accepted}}<tr>
      <th scope="row" data-label="{{@root.i.columns.row}}">{{row}}</th>
      <td data-label="{{@root.i.columns.cuit}}" class="nowrap">{{cuit}}</td>
      <td data-label="{{@root.i.columns.tipo}}">{{tipo}}</td>
      <td data-label="{{@root.i.columns.name}}">{{nombre}}</td>
    </tr>{{/each}}</tbody>
  </table></div>
</section>
{{/if}}
{{/layout}}
`,

    done: `{{#> layout}}
<h1>{{i.doneTitle}}</h1>
<p class="notice" role="status" id="resultado-importacion">{{importedLine}}</p>
REFUSED
<p><a href="/panel">{{i.toPortfolio}}</a> · <a href="/panel/clientes/importar">{{i.another}}</a></p>
{{/layout}}
`
};

export const importViews = {
    upload: compile(internals.upload),
    preview: compile(internals.preview.replace('REFUSED', internals.refused)),
    done: compile(internals.done.replace('REFUSED', internals.refused))
};
