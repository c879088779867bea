import { clientStylesheet } from './client-styles.js';

// The panel's one stylesheet, served by the service itself (/panel/estilos.css): no CDN, and no
// inline style, which the panel's Content-Security-Policy (default-src 'self') would refuse.
// Colours keep at least 4.5:1 against their background (WCAG AA); the focus ring is always
// visible; on a narrow screen each table row becomes a card.
export const panelStylesheet = `
:root{--ink:#1d2733;--muted:#4a5866;--bg:#f4f6f8;--card:#fff;--line:#c9d1d9;--accent:#1a56b0;
--ok-bg:#e3f4e8;--ok:#14532d;--wait-bg:#fff4d6;--wait:#6b4500;--bad-bg:#fde8e6;--bad:#8a1c12}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--ink);margin:0;line-height:1.45}
a{color:var(--accent)}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--card);padding:.5rem 1rem}
.skip:focus{left:.5rem}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:1rem;padding:.75rem 1.25rem;background:#12315e;color:#fff}
.top a{color:#fff}
.brand{font-weight:700;margin:0}
.top nav a{font-weight:600;text-decoration:none}
.top nav a[aria-current=page]{text-decoration:underline}
.signout{margin-left:auto;display:flex;align-items:center;gap:.75rem}
.signout button{background:transparent;color:#fff;border:1px solid #fff;border-radius:.4rem;padding:.35rem .8rem;font-size:.95rem;cursor:pointer}
.who{font-size:.9rem}
main{max-width:72rem;margin:0 auto;padding:1.25rem}
main:focus{outline:none}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.card{background:var(--card);border-radius:.75rem;box-shadow:0 1px 4px rgba(0,0,0,.12);padding:1.5rem 1.75rem}
.narrow{max-width:28rem;margin:2rem auto}
label{display:block;margin:.9rem 0 .3rem;font-weight:600}
input[type=email],input[type=password],input[type=text],input[type=search]{width:100%;padding:.6rem;border:1px solid #6b7785;border-radius:.4rem;font-size:1rem}
form button[type=submit]{margin-top:1.25rem;padding:.65rem 1.2rem;font-size:1rem;border-radius:.4rem;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer}
.top form button[type=submit]{margin-top:0;background:transparent;border-color:#fff;font-size:.95rem;padding:.35rem .8rem}
.error{background:var(--bad-bg);color:var(--bad);border-radius:.4rem;padding:.6rem .8rem}
.notice{background:var(--ok-bg);color:var(--ok);border-radius:.4rem;padding:.6rem .8rem}
.counts{font-size:1.05rem;font-weight:600}
.note,.count{color:var(--muted)}
.table-wrap{overflow-x:auto}
table{width:100%;border-collapse:collapse;background:var(--card)}
th,td{text-align:left;padding:.55rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
thead th{font-size:.9rem;color:var(--muted)}
tbody th{font-weight:600}
.nowrap{white-space:nowrap}
.light{display:inline-block;font-weight:600;border-radius:1rem;padding:.1rem .6rem;font-size:.85rem;white-space:nowrap}
.light::before{content:"";display:inline-block;width:.6rem;height:.6rem;border-radius:50%;margin-right:.35rem;background:currentColor}
.light-ok{background:var(--ok-bg);color:var(--ok)}
.light-waiting{background:var(--wait-bg);color:var(--wait)}
.light-waiting::before{border-radius:0}
.light-attention{background:var(--bad-bg);color:var(--bad)}
.light-attention::before{border-radius:0;transform:rotate(45deg)}
.sentence{display:block;font-size:.85rem;color:var(--muted);margin-top:.2rem}
.tag{display:inline-block;border:1px solid var(--line);border-radius:.3rem;padding:0 .35rem;font-size:.85rem}
.filters{display:flex;flex-wrap:wrap;gap:.75rem 1.25rem;align-items:flex-start;margin:0 0 1rem}
.filter-actions{padding-top:1.75rem}
.filters label{margin:0 0 .25rem}
select{padding:.45rem;border:1px solid #6b7785;border-radius:.4rem;font-size:1rem;background:#fff;color:var(--ink)}
.filters button[type=submit]{margin-top:0}
.search{flex:1 1 16rem}
.hint{display:block;font-size:.8rem;color:var(--muted);margin-top:.2rem}
.tally{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;list-style:none;padding:0;margin:.25rem 0 1rem}
.top nav{display:flex;gap:1rem;flex-wrap:wrap}
.state{font-size:1.1rem;border-radius:.4rem;padding:.6rem .8rem;background:var(--wait-bg);color:var(--wait)}
.state-active{background:var(--ok-bg);color:var(--ok)}
.state-ended,.state-inactive{background:var(--bad-bg);color:var(--bad)}
.paging{display:flex;gap:1rem;align-items:center;margin:1.25rem 0}
@media (max-width:40rem){
  thead{position:absolute;left:-9999px}
  table,tbody,tr,th,td{display:block;width:100%}
  tr{border:1px solid var(--line);border-radius:.5rem;margin-bottom:.75rem;padding:.25rem .5rem;background:var(--card)}
  th,td{border:0;padding:.3rem 0}
  td::before,tbody th::before{content:attr(data-label);display:block;font-size:.8rem;color:var(--muted);font-weight:400}
  .signout{margin-left:0}
}
.copyable{display:flex;gap:.5rem;align-items:center}
.copyable input{flex:1;font-family:ui-monospace,monospace}
${clientStylesheet}`;

// The panel's icon: the semáforo's green light (served, like the stylesheet, by the service).
export const panelIcon = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#12315e"/>'
    + '<circle cx="16" cy="16" r="9" fill="#2fb463"/></svg>';
