import { compile } from './views.js';

// The client pages (/panel/clientes/{cuit}/…), on the panel's template engine and layout:
// `{{ }}` escapes every value, no template uses `{{{ }}}`. Each tab is its own page (plain
// links, no script), with the client's header and the tabs above it. The chart is inline SVG
// drawn from numbers (invoice-chart.ts); its colours come from the stylesheet by class. It is
// not role="img": that would hide its month links from assistive technology; the same totals
// are a table beside it.

const paging = `{{#if paging}}
<nav class="paging" aria-label="{{@root.c.pages}}">
  {{#if paging.previous}}<a rel="prev" href="{{paging.previous}}">{{@root.c.previous}}</a>{{/if}}
  <span>{{paging.label}}</span>
  {{#if paging.next}}<a rel="next" href="{{paging.next}}">{{@root.c.next}}</a>{{/if}}
</nav>
{{/if}}`;

const internals = {
    header: `<p class="crumbs"><a href="/panel">{{c.backToPortfolio}}</a></p>
<h1>{{client.name}} <span class="cuit">{{c.cuit}} {{client.cuit}}</span></h1>
<p class="client-state"><span class="light light-{{client.light}}">{{client.lightLabel}}</span> <span>{{client.sentence}}</span></p>
{{#if written}}<p class="notice" role="status">{{written}}</p>{{/if}}
{{#if writes}}<p class="client-actions"><a href="{{writes.edit}}">{{writes.editLabel}}</a> <a href="{{writes.remove}}">{{writes.removeLabel}}</a></p>{{/if}}
{{#if tagging}}{{#if tagging.tags.length}}<form class="filters" method="post" action="/panel/etiquetas/asignar" aria-label="{{t.clientTags}}">
  <input type="hidden" name="{{crumbKey}}" value="{{crumb}}"><input type="hidden" name="cuit" value="{{tagging.cuit}}"><input type="hidden" name="volver" value="{{tagging.back}}">
  <div><label for="etiqueta-cliente">{{t.clientTags}}</label>
  <select id="etiqueta-cliente" name="etiqueta">{{#each tagging.tags}}<option value="{{this}}">{{this}}</option>{{/each}}</select></div>
  <div class="filter-actions"><button type="submit" name="accion" value="asignar">{{t.assignOne}}</button> <button type="submit" name="accion" value="quitar">{{t.unassignOne}}</button></div>
</form>{{/if}}{{/if}}
<nav class="tabs" aria-label="{{c.sections}}">
{{#each tabs}}<a href="{{href}}" {{#if current}}aria-current="page"{{/if}}>{{label}}</a>{{/each}}
</nav>
`,

    // The 12 months' bars (invoice-chart.ts's geometry), with the texts each tab names.
    chart: (title: string, description: string, issued: string, received: string) => `<figure class="chart-box">
<svg class="chart" viewBox="0 0 {{chart.width}} {{chart.height}}" aria-labelledby="grafico-titulo grafico-desc" xmlns="http://www.w3.org/2000/svg">
  <title id="grafico-titulo">{{${title}}}</title>
  <desc id="grafico-desc">{{${description}}}</desc>
  {{#each chart.ticks}}<line class="grid" x1="{{x1}}" x2="{{x2}}" y1="{{y}}" y2="{{y}}"/><text class="tick" x="{{labelX}}" y="{{y}}" text-anchor="end" dominant-baseline="middle">{{label}}</text>
  {{/each}}
  <line class="axis" x1="{{chart.baseline.x1}}" x2="{{chart.baseline.x2}}" y1="{{chart.baseline.y}}" y2="{{chart.baseline.y}}"/>
  {{#each chart.months}}<a href="{{href}}"><title>{{title}}</title>
    <rect class="bar-issued" x="{{issued.x}}" y="{{issued.y}}" width="{{issued.width}}" height="{{issued.height}}"/>
    <rect class="bar-received" x="{{received.x}}" y="{{received.y}}" width="{{received.width}}" height="{{received.height}}"/>
    <text class="month" x="{{labelX}}" y="{{labelY}}" text-anchor="middle">{{label}}</text></a>
  {{/each}}
</svg>
<figcaption class="legend"><span class="key key-issued"></span>{{${issued}}} <span class="key key-received"></span>{{${received}}}</figcaption>
</figure>`,

    synced: '<p class="note">{{#if syncedAt}}{{syncedAt}}{{else}}{{@root.c.neverSynced}}{{/if}}</p>',


    invoices: (kind: 'issued' | 'received') => `{{#with ${kind}}}
<section aria-labelledby="tabla-{{id}}">
  <h2 id="tabla-{{id}}">{{title}}</h2>
  <p class="summary">{{summary}}{{#if creditNotes}} · {{creditNotes}}{{/if}}</p>
  {{#each currencies}}<p class="note">{{this}}</p>{{/each}}
  {{#if rows.length}}
  <div class="table-wrap">
  <table>
    <thead><tr>
      <th scope="col">{{@root.c.invoiceColumns.fecha}}</th>
      <th scope="col">{{@root.c.invoiceColumns.tipo}}</th>
      <th scope="col">{{@root.c.invoiceColumns.numero}}</th>
      <th scope="col">{{counterpartLabel}}</th>
      <th scope="col" class="num">{{@root.c.invoiceColumns.neto}}</th>
      <th scope="col" class="num">{{@root.c.invoiceColumns.iva}}</th>
      <th scope="col" class="num">{{@root.c.invoiceColumns.importe}}</th>
    </tr></thead>
    <tbody>
    {{#each rows}}
    <tr>
      <td data-label="{{@root.c.invoiceColumns.fecha}}" class="nowrap">{{fecha}}</td>
      <td data-label="{{@root.c.invoiceColumns.tipo}}">{{tipo}}</td>
      <td data-label="{{@root.c.invoiceColumns.numero}}" class="nowrap">{{numero}}</td>
      <td data-label="{{../counterpartLabel}}">{{counterpart}}{{#if document}} <span class="note">{{document}}</span>{{/if}}</td>
      <td data-label="{{@root.c.invoiceColumns.neto}}" class="num">{{neto}}</td>
      <td data-label="{{@root.c.invoiceColumns.iva}}" class="num">{{iva}}</td>
      <td data-label="{{@root.c.invoiceColumns.importe}}" class="num">{{importe}}{{#if original}} <span class="note">{{original}}</span>{{/if}}</td>
    </tr>
    {{/each}}
    </tbody>
  </table>
  </div>
  <p class="note">{{shown}}</p>
  ${paging}
  {{else}}
  <p>{{@root.c.noInvoices}}</p>
  {{/if}}
</section>
{{/with}}`
};

const clientPage = (body: string) => compile(`{{#> layout}}
${internals.header}
{{#if blocked}}
<p class="error" role="alert">{{blocked}}</p>
{{else}}
${body}
{{/if}}
{{/layout}}
`);

export const clientViews = {
    invoices: clientPage(`
<form class="filters" method="get" action="{{client.base}}" aria-label="{{c.periodForm}}">
  <div><label for="desde">{{c.from}}</label><input id="desde" name="desde" type="date" value="{{period.from}}" required></div>
  <div><label for="hasta">{{c.to}}</label><input id="hasta" name="hasta" type="date" value="{{period.to}}" required></div>
  <div class="filter-actions"><button type="submit">{{c.show}}</button></div>
</form>
<p class="counts">{{c.period}}: {{period.label}}</p>
<p class="downloads">{{c.downloads}}: <a href="{{downloads.csv}}" download>{{c.downloadCsv}}</a> · <a href="{{downloads.xlsx}}" download>{{c.downloadXlsx}}</a></p>
${internals.chart('c.chartTitle', 'c.chartDescription', 'c.issued', 'c.received')}
<details class="chart-table"><summary>{{c.chartTable}}</summary>
<div class="table-wrap"><table>
  <thead><tr><th scope="col">{{c.month}}</th><th scope="col" class="num">{{c.issued}}</th><th scope="col" class="num">{{c.received}}</th></tr></thead>
  <tbody>{{#each chartRows}}<tr><th scope="row"><a href="{{href}}">{{month}}</a></th><td class="num">{{issued}}</td><td class="num">{{received}}</td></tr>{{/each}}</tbody>
</table></div>
</details>
${internals.invoices('issued')}
${internals.invoices('received')}
`),

    sct: clientPage(`
${internals.synced}
{{#if sct}}
<section aria-labelledby="deuda">
  <h2 id="deuda">{{c.debt}}</h2>
  <p class="counts">{{c.totalDebt}}: {{sct.total}}</p>
  {{#if sct.debts.length}}
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">{{c.sctColumns.impuesto}}</th><th scope="col">{{c.sctColumns.concepto}}</th><th scope="col">{{c.sctColumns.periodo}}</th>
      <th scope="col">{{c.sctColumns.vencimiento}}</th><th scope="col" class="num">{{c.sctColumns.saldo}}</th><th scope="col" class="num">{{c.sctColumns.intereses}}</th><th scope="col" class="num">{{c.sctColumns.total}}</th></tr></thead>
    <tbody>{{#each sct.debts}}<tr>
      <td data-label="{{@root.c.sctColumns.impuesto}}">{{impuesto}}</td><td data-label="{{@root.c.sctColumns.concepto}}">{{concepto}}</td>
      <td data-label="{{@root.c.sctColumns.periodo}}">{{periodo}}</td><td data-label="{{@root.c.sctColumns.vencimiento}}">{{vencimiento}}</td>
      <td data-label="{{@root.c.sctColumns.saldo}}" class="num">{{saldo}}</td><td data-label="{{@root.c.sctColumns.intereses}}" class="num">{{intereses}}</td>
      <td data-label="{{@root.c.sctColumns.total}}" class="num">{{total}}</td></tr>{{/each}}</tbody>
  </table></div>
  {{else}}<p>{{c.noDebt}}</p>{{/if}}
</section>
<section aria-labelledby="vencimientos">
  <h2 id="vencimientos">{{c.dueDates}}</h2>
  {{#if sct.dueDates.length}}
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">{{c.sctColumns.vencimiento}}</th><th scope="col">{{c.sctColumns.impuesto}}</th><th scope="col">{{c.sctColumns.concepto}}</th><th scope="col">{{c.sctColumns.periodo}}</th><th scope="col">{{c.sctColumns.detalle}}</th></tr></thead>
    <tbody>{{#each sct.dueDates}}<tr>
      <td data-label="{{@root.c.sctColumns.vencimiento}}">{{vencimiento}}</td><td data-label="{{@root.c.sctColumns.impuesto}}">{{impuesto}}</td>
      <td data-label="{{@root.c.sctColumns.concepto}}">{{concepto}}</td><td data-label="{{@root.c.sctColumns.periodo}}">{{periodo}}</td>
      <td data-label="{{@root.c.sctColumns.detalle}}">{{detalle}}</td></tr>{{/each}}</tbody>
  </table></div>
  {{else}}<p>{{c.noDueDates}}</p>{{/if}}
</section>
<section aria-labelledby="ddjj">
  <h2 id="ddjj">{{c.returns}}</h2>
  {{#if sct.returns.length}}
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">{{c.sctColumns.impuesto}}</th><th scope="col">{{c.sctColumns.concepto}}</th><th scope="col">{{c.sctColumns.periodo}}</th><th scope="col">{{c.sctColumns.cuota}}</th><th scope="col">{{c.sctColumns.vencimiento}}</th></tr></thead>
    <tbody>{{#each sct.returns}}<tr>
      <td data-label="{{@root.c.sctColumns.impuesto}}">{{impuesto}}</td><td data-label="{{@root.c.sctColumns.concepto}}">{{concepto}}</td>
      <td data-label="{{@root.c.sctColumns.periodo}}">{{periodo}}</td><td data-label="{{@root.c.sctColumns.cuota}}">{{cuota}}</td>
      <td data-label="{{@root.c.sctColumns.vencimiento}}">{{vencimiento}}</td></tr>{{/each}}</tbody>
  </table></div>
  {{else}}<p>{{c.noReturns}}</p>{{/if}}
</section>
{{/if}}
`),

    ccma: clientPage(`
${internals.synced}
{{#if balances}}
<section aria-labelledby="saldos">
  <h2 id="saldos">{{c.balances}}</h2>
  <dl class="facts">
    <div><dt>{{c.debtorBalance}}</dt><dd>{{balances.debtor}}</dd></div>
    <div><dt>{{c.creditorBalance}}</dt><dd>{{balances.creditor}}</dd></div>
  </dl>
</section>
{{/if}}
<section aria-labelledby="movimientos">
  <h2 id="movimientos">{{c.movements}}</h2>
  {{#each periods}}
  <h3>{{heading}}</h3>
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">{{@root.c.ccmaColumns.fecha}}</th><th scope="col">{{@root.c.ccmaColumns.concepto}}</th><th scope="col">{{@root.c.ccmaColumns.descripcion}}</th>
      <th scope="col" class="num">{{@root.c.ccmaColumns.debe}}</th><th scope="col" class="num">{{@root.c.ccmaColumns.haber}}</th><th scope="col" class="num">{{@root.c.ccmaColumns.saldo}}</th></tr></thead>
    <tbody>{{#each rows}}<tr>
      <td data-label="{{@root.c.ccmaColumns.fecha}}" class="nowrap">{{fecha}}</td><td data-label="{{@root.c.ccmaColumns.concepto}}">{{impuesto}} · {{concepto}}</td>
      <td data-label="{{@root.c.ccmaColumns.descripcion}}">{{descripcion}}</td><td data-label="{{@root.c.ccmaColumns.debe}}" class="num">{{debe}}</td>
      <td data-label="{{@root.c.ccmaColumns.haber}}" class="num">{{haber}}</td><td data-label="{{@root.c.ccmaColumns.saldo}}" class="num">{{saldo}}</td></tr>{{/each}}</tbody>
  </table></div>
  {{else}}<p>{{c.noMovements}}</p>
  {{/each}}
  ${paging}
</section>
`),

    notifications: clientPage(`
${internals.synced}
<section aria-labelledby="bandeja">
  <h2 id="bandeja">{{c.inbox}}</h2>
  <p class="note">{{counts}}</p>
  {{#if rows.length}}
  <div class="table-wrap"><table class="inbox">
    <thead><tr><th scope="col">{{c.notificationColumns.estado}}</th><th scope="col">{{c.notificationColumns.asunto}}</th><th scope="col">{{c.notificationColumns.organismo}}</th><th scope="col">{{c.notificationColumns.recepcion}}</th>
      <th scope="col"><span class="visually-hidden">{{c.notificationColumns.accion}}</span></th></tr></thead>
    <tbody>{{#each rows}}<tr {{#if unread}}class="unread"{{/if}}>
      <td data-label="{{@root.c.notificationColumns.estado}}"><span class="mark {{#if unread}}mark-unread{{else}}mark-read{{/if}}">{{state}}</span></td>
      <th scope="row" data-label="{{@root.c.notificationColumns.asunto}}">{{#if href}}<a href="{{href}}">{{asunto}}</a>{{else}}{{asunto}}{{/if}}</th>
      <td data-label="{{@root.c.notificationColumns.organismo}}">{{organismo}}</td>
      <td data-label="{{@root.c.notificationColumns.recepcion}}" class="nowrap">{{recepcion}}</td>
      <td>{{#if action}}<form class="inline" method="post" action="{{action}}">
        <input type="hidden" name="{{@root.crumbKey}}" value="{{@root.crumb}}">
        <input type="hidden" name="volver" value="{{@root.inboxPage}}">
        <button type="submit" class="small" aria-label="{{actionLabel}}">{{actionText}}</button>
      </form>{{/if}}</td></tr>{{/each}}</tbody>
  </table></div>
  {{else}}<p>{{c.noNotifications}}</p>{{/if}}
  ${paging}
</section>
`),

    notification: clientPage(`
<section class="card" aria-labelledby="comunicacion">
  <h2 id="comunicacion">{{notification.asunto}}</h2>
  {{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
  <dl class="facts">
    <div><dt>{{c.notificationFields.tipo}}</dt><dd>{{notification.tipo}}</dd></div>
    <div><dt>{{c.notificationFields.organismo}}</dt><dd>{{notification.organismo}}</dd></div>
    <div><dt>{{c.notificationFields.recepcion}}</dt><dd>{{notification.recepcion}}</dd></div>
    <div><dt>{{c.notificationFields.notificacion}}</dt><dd>{{notification.notificacion}}</dd></div>
    <div><dt>{{c.notificationFields.leida}}</dt><dd>{{notification.leida}}</dd></div>
    <div><dt>{{c.notificationFields.id}}</dt><dd>{{notification.id}}</dd></div>
  </dl>
  <form method="post" action="{{notification.action}}">
    <input type="hidden" name="{{crumbKey}}" value="{{crumb}}">
    <button type="submit">{{#if notification.unread}}{{c.markRead}}{{else}}{{c.markUnread}}{{/if}}</button>
  </form>
  <p class="note">{{c.neverOpened}}</p>
  <p><a href="{{notification.inbox}}">{{c.backToInbox}}</a></p>
</section>
`),

    monotributo: clientPage(`
${internals.synced}
{{#if notApplicable}}<p class="notice" role="status">{{notApplicable}}</p>{{/if}}
{{#with monotributo}}
<section aria-labelledby="tope">
  <h2 id="tope">{{@root.a.gaugeTitle}}</h2>
  <p class="summary">{{billed}}</p>
  <figure class="chart-box">
  <svg class="gauge" viewBox="0 0 {{gauge.width}} {{gauge.height}}" role="img" aria-labelledby="medidor-titulo medidor-desc" xmlns="http://www.w3.org/2000/svg">
    <title id="medidor-titulo">{{@root.a.gaugeTitle}}</title>
    <desc id="medidor-desc">{{@root.a.gaugeDescription}}{{#each gauge.meters}} {{label}}.{{/each}}</desc>
    {{#each gauge.meters}}<g class="meter">
      <text class="meter-label" x="{{labelX}}" y="{{labelY}}">{{label}}</text>
      <rect class="cap-track" x="{{track.x}}" y="{{track.y}}" width="{{track.width}}" height="{{track.height}}" rx="3"/>
      <rect class="cap-{{fill.level}}" x="{{fill.x}}" y="{{fill.y}}" width="{{fill.width}}" height="{{fill.height}}" rx="3"/>
      {{#each marks}}<line class="meter-mark" x1="{{x}}" x2="{{x}}" y1="{{y1}}" y2="{{y2}}"/><text class="tick" x="{{x}}" y="{{labelY}}" text-anchor="middle">{{label}}</text>{{/each}}
    </g>
    {{/each}}
  </svg>
  </figure>
  <dl class="facts">
    {{#each facts}}<div><dt>{{term}}</dt><dd>{{value}}</dd></div>{{/each}}
  </dl>
  {{#if tableNotice}}<p class="note">{{tableNotice}}</p>{{/if}}
  <p class="note">{{table}}</p>
</section>
<section aria-labelledby="compras">
  <h2 id="compras">{{@root.a.purchases}}</h2>
  <dl class="facts">
    {{#each purchases}}<div><dt>{{term}}</dt><dd>{{value}}</dd></div>{{/each}}
  </dl>
</section>
${internals.chart('@root.a.monthChartTitle', '@root.a.monthChartDescription', '@root.a.billedLegend', '@root.a.purchasesLegend')}
<details class="chart-table"><summary>{{@root.c.chartTable}}</summary>
<div class="table-wrap"><table>
  <thead><tr><th scope="col">{{@root.c.month}}</th><th scope="col" class="num">{{@root.a.billedLegend}}</th><th scope="col" class="num">{{@root.a.purchasesLegend}}</th></tr></thead>
  <tbody>{{#each chartRows}}<tr><th scope="row">{{month}}</th><td class="num">{{billed}}</td><td class="num">{{bought}}</td></tr>{{/each}}</tbody>
</table></div>
</details>
{{/with}}
`),

    iva: clientPage(`
${internals.synced}
{{#if notApplicable}}<p class="notice" role="status">{{notApplicable}}</p>{{/if}}
{{#with iva}}
<section aria-labelledby="posicion">
  <h2 id="posicion">{{@root.a.ivaHeading}}</h2>
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">{{@root.a.ivaColumns.mes}}</th><th scope="col" class="num">{{@root.a.ivaColumns.debito}}</th><th scope="col" class="num">{{@root.a.ivaColumns.credito}}</th>
      <th scope="col" class="num">{{@root.a.ivaColumns.saldo}}</th><th scope="col" class="num">{{@root.a.ivaColumns.emitidos}}</th><th scope="col" class="num">{{@root.a.ivaColumns.recibidos}}</th></tr></thead>
    <tbody>{{#each months}}<tr>
      <th scope="row" data-label="{{@root.a.ivaColumns.mes}}">{{month}}</th><td data-label="{{@root.a.ivaColumns.debito}}" class="num">{{debito}}</td>
      <td data-label="{{@root.a.ivaColumns.credito}}" class="num">{{credito}}</td><td data-label="{{@root.a.ivaColumns.saldo}}" class="num">{{saldo}}</td>
      <td data-label="{{@root.a.ivaColumns.emitidos}}" class="num">{{emitidos}}</td><td data-label="{{@root.a.ivaColumns.recibidos}}" class="num">{{recibidos}}</td></tr>{{/each}}</tbody>
    <tfoot><tr><th scope="row">{{@root.a.total}}</th><td class="num">{{totals.debito}}</td><td class="num">{{totals.credito}}</td><td class="num">{{totals.saldo}}</td><td></td><td></td></tr></tfoot>
  </table></div>
  <h3>{{@root.a.leavesOut}}</h3>
  <ul>{{#each excluye}}<li>{{this}}</li>{{/each}}</ul>
</section>
{{/with}}
`),

    health: clientPage(`
<section aria-labelledby="general">
  <h2 id="general">{{c.overall}}</h2>
  <dl class="facts">
    <div><dt>{{c.systemColumns.estado}}</dt><dd>{{health.state}}</dd></div>
    <div><dt>{{c.since}}</dt><dd>{{health.since}}</dd></div>
    <div><dt>{{c.advice}}</dt><dd>{{health.advice}}</dd></div>
    <div><dt>{{c.key}}</dt><dd>{{health.key.state}}{{#if health.key.since}} · {{c.since}} {{health.key.since}}{{/if}}<span class="sentence">{{health.key.advice}}</span>{{#if health.key.cuit}}<span class="sentence">{{health.key.cuit}}</span>{{/if}}</dd></div>
  </dl>
</section>
<section aria-labelledby="sistemas">
  <h2 id="sistemas">{{c.systemsHeading}}</h2>
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">{{c.systemColumns.sistema}}</th><th scope="col">{{c.systemColumns.estado}}</th><th scope="col">{{c.systemColumns.desde}}</th><th scope="col">{{c.systemColumns.exito}}</th><th scope="col">{{c.systemColumns.consejo}}</th></tr></thead>
    <tbody>{{#each health.systems}}<tr>
      <th scope="row" data-label="{{@root.c.systemColumns.sistema}}">{{name}}</th>
      <td data-label="{{@root.c.systemColumns.estado}}"><span class="light light-{{light}}">{{state}}</span></td>
      <td data-label="{{@root.c.systemColumns.desde}}">{{since}}</td>
      <td data-label="{{@root.c.systemColumns.exito}}">{{synced}}</td>
      <td data-label="{{@root.c.systemColumns.consejo}}">{{message}}<span class="sentence">{{advice}}</span></td></tr>{{/each}}</tbody>
  </table></div>
</section>
`)
};

export type ClientView = keyof typeof clientViews;
