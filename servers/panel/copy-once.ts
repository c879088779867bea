// A secret or a link shown once (an API token and its curl line, an invitation link): a card
// with read-only fields to select, each with a copy button `hidden` until /panel/copiar.js (the
// service's own file, no inline script) shows it; without script the fields are there to select
// and copy by hand. Partials of the panel's engine (views.ts), so `{{ }}` escapes every value:
//
//   {{#> copyOnce title=…}}{{> copyField id="…" label=… value=…}}…{{/copyOnce}}
//
// `id` names the field (the copy button points at it); whatever else the block holds (a note)
// stands under the fields.

export const copyPartials = {
    copyOnce: `<section class="card" aria-labelledby="copia-titulo">
  <h2 id="copia-titulo">{{title}}</h2>
  {{> @partial-block}}
  <p class="note" role="status" id="copia-estado" data-copied="{{t.copied}}" data-failed="{{t.copyFailed}}"></p>
</section>
<script src="/panel/copiar.js" defer></script>`,

    copyField: `<label for="{{id}}">{{label}}</label>
  <div class="copyable"><input id="{{id}}" type="text" readonly value="{{value}}" autocomplete="off" spellcheck="false">
  <button type="button" class="copy" data-copy="{{id}}" hidden>{{t.copy}}</button></div>`
};

// /panel/copiar.js: copies a read-only field's value to the clipboard and says so in the
// status line. Served by the service with the stylesheet's caching; the CSP (`default-src
// 'self'`) allows it and nothing inline.
export const copyScript = `'use strict';
(function () {
  var status = document.getElementById('copia-estado');
  var buttons = document.querySelectorAll('button[data-copy]');
  if (!navigator.clipboard || !status) {
    return;
  }
  buttons.forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var field = document.getElementById(button.getAttribute('data-copy'));
      field.select();
      navigator.clipboard.writeText(field.value).then(function () {
        status.textContent = status.getAttribute('data-copied');
      }, function () {
        status.textContent = status.getAttribute('data-failed');
      });
    });
  });
})();
`;
