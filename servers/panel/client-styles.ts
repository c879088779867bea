// The client pages' part of the panel's one stylesheet (styles.ts serves it): tabs, figures,
// the chart's colours by class (SVG presentation by the stylesheet, never an inline style, which
// the CSP refuses), and the inbox's unread rows. Issued and received keep 3:1 against white
// and differ in lightness, not hue alone.
export const clientStylesheet = `
.crumbs{margin:0;font-size:.95rem}
.cuit{font-size:1rem;font-weight:400;color:var(--muted);white-space:nowrap}
.client-state{margin:.25rem 0 1rem}
.tabs{display:flex;flex-wrap:wrap;gap:.25rem;border-bottom:2px solid var(--line);margin:0 0 1rem}
.tabs a{padding:.5rem .8rem;text-decoration:none;border-radius:.4rem .4rem 0 0;font-weight:600}
.tabs a[aria-current=page]{background:var(--card);border:2px solid var(--line);border-bottom-color:var(--card);margin-bottom:-2px;color:var(--ink)}
input[type=date]{padding:.45rem;border:1px solid #6b7785;border-radius:.4rem;font-size:1rem}
.num{text-align:right;white-space:nowrap}
.summary{font-weight:600}
.downloads a{font-weight:600}
.chart-box{margin:0 0 1rem;background:var(--card);border-radius:.75rem;padding:1rem}
.chart{width:100%;height:auto;display:block}
.chart .grid{stroke:#e1e6eb}
.chart .axis{stroke:#6b7785}
.chart .tick,.chart .month{font-size:12px;fill:var(--muted)}
.bar-issued,.key-issued{fill:#1a56b0;background:#1a56b0}
.bar-received,.key-received{fill:#c2410c;background:#c2410c}
.chart a:focus-visible rect{stroke:#f59e0b;stroke-width:3}
.legend{margin-top:.5rem;color:var(--muted)}
.key{display:inline-block;width:.8rem;height:.8rem;margin:0 .3rem 0 .8rem;vertical-align:middle}
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:.75rem;margin:0 0 1rem}
.facts div{background:var(--card);border-radius:.5rem;padding:.6rem .8rem}
.facts dt{font-size:.85rem;color:var(--muted)}
.facts dd{margin:0;font-weight:600}
.facts .sentence{font-weight:400}
.mark{display:inline-block;border-radius:1rem;padding:.1rem .6rem;font-size:.85rem;white-space:nowrap}
.mark-unread{background:#12315e;color:#fff;font-weight:700}
.mark-read{border:1px solid var(--line);color:var(--muted)}
tr.unread th,tr.unread td{font-weight:700}
form.inline button.small{margin:0;padding:.25rem .6rem;font-size:.85rem;border-radius:.4rem;border:1px solid var(--accent);background:var(--card);color:var(--accent);cursor:pointer}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.gauge{width:100%;height:auto;display:block}
.gauge .meter-label{font-size:14px;font-weight:600;fill:var(--ink)}
.gauge .meter-mark{stroke:#1f2933;stroke-width:2}
.gauge .tick{font-size:11px;fill:var(--muted)}
.cap-track{fill:#e1e6eb}
.cap-ok{fill:#15803d}
.cap-near{fill:#b45309}
.cap-over{fill:#b91c1c}
.cap{white-space:nowrap}
.cap-meter{vertical-align:middle}
.agenda{list-style:none;margin:0 0 1rem;padding:0}
.agenda li{background:var(--card);border-radius:.5rem;padding:.5rem .8rem;margin:0 0 .4rem}
.secret{width:100%;font-family:monospace;font-size:.9rem}
.client-form{max-width:40rem;margin:1rem auto}
.client-form fieldset{border:1px solid var(--line);border-radius:.5rem;margin:1rem 0;padding:.25rem 1rem 1rem}
.client-form legend{font-weight:700;padding:0 .3rem}
.choice{font-weight:400;display:flex;gap:.5rem;align-items:baseline}
input[type=tel]{width:100%;padding:.6rem;border:1px solid #6b7785;border-radius:.4rem;font-size:1rem}
input[aria-invalid=true]{border:2px solid var(--bad)}
.field-error{color:var(--bad);font-weight:600;margin:.3rem 0 0}
.client-actions,.page-actions{display:flex;gap:1.25rem;margin:.5rem 0 1rem}
form button.danger{background:var(--bad);border-color:var(--bad)}
@media (max-width:40rem){.num{text-align:left}}
`;
