/**
 * The viewer's stylesheet, one string for both forms: the extension page adds it with a `<style>`
 * element, `viewer.html` inlines it (its CSP allows inline styles and nothing from outside). It lives
 * with the format because the writer puts it into every `viewer.html`, and the writer reads nothing
 * from the viewer.
 */
export const VIEWER_CSS = `
:root { color-scheme: light; --fg: #1d2330; --muted: #5d6778; --line: #dde2ea; --bg: #f4f6f9; --panel: #fff;
  --accent: #2458d3; --fail: #c62a2a; --fail-bg: #fdecec; --ok: #1f7a3e; --ok-bg: #e6f4ea; --warn-bg: #fff6dd; --warn: #7a5600;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
button { font: inherit; }
h2 { font-size: 14px; margin: 0 0 8px; display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
h3 { font-size: 12px; margin: 10px 0 4px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.afr-viewer { display: flex; flex-direction: column; gap: 10px; padding: 10px 14px 24px; max-width: 1600px; margin: 0 auto; }
.afr-panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; min-width: 0; }
.afr-count { font-weight: normal; color: var(--muted); font-size: 12px; }
.afr-empty { color: var(--muted); font-style: italic; }
.afr-badge { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 11px; line-height: 17px; background: #e9edf3; color: var(--muted); white-space: nowrap; }
.afr-redacted { background: #3b2a5a; color: #fff; }
.afr-url { font-family: var(--mono); font-size: 12px; word-break: break-all; }

.afr-header { background: var(--panel); border: 1px solid var(--line); border-left: 5px solid var(--fail); border-radius: 8px; padding: 8px 12px; }
.afr-title { display: flex; align-items: baseline; gap: 10px; flex-wrap: wrap; }
.afr-reason { font-family: var(--mono); font-weight: 700; font-size: 16px; color: var(--fail); }
.afr-label { font-size: 15px; font-weight: 600; }
.afr-bundle-id { margin-left: auto; font-family: var(--mono); color: var(--muted); font-size: 12px; }
.afr-message { margin-top: 2px; font-family: var(--mono); font-size: 12px; white-space: pre-wrap; word-break: break-word; max-height: 3.2em; overflow: auto; }
.afr-fields { display: flex; gap: 4px 18px; flex-wrap: wrap; margin-top: 4px; }
.afr-field-label { color: var(--muted); margin-right: 5px; }

.afr-main { display: grid; grid-template-columns: minmax(0, 1.45fr) minmax(340px, 1fr); gap: 10px; height: calc(100vh - 150px); min-height: 420px; }
.afr-player { display: flex; flex-direction: column; gap: 6px; }
.afr-stage { position: relative; flex: 1; min-height: 0; display: grid; background: #11151c; border-radius: 6px; overflow: hidden; }
.afr-stage > * { grid-area: 1 / 1; width: 100%; height: 100%; object-fit: contain; min-height: 0; }
.afr-stage .afr-empty { color: #aab; display: grid; place-items: center; }
.afr-clip { visibility: hidden; }
.afr-stage.afr-playing .afr-clip { visibility: visible; }
.afr-stage.afr-playing .afr-frame { visibility: hidden; }
.afr-controls { display: flex; align-items: center; gap: 6px; }
.afr-control { width: 34px; height: 30px; border: 1px solid var(--line); background: #fff; border-radius: 6px; cursor: pointer; font-size: 16px; line-height: 1; }
.afr-control:hover { border-color: var(--accent); }
.afr-control[aria-pressed="true"] { background: var(--accent); color: #fff; border-color: var(--accent); }
.afr-scrubber { position: relative; flex: 1; padding-top: 8px; }
.afr-range { width: 100%; margin: 0; accent-color: var(--accent); }
.afr-ticks { position: absolute; left: 8px; right: 8px; top: 0; height: 8px; }
.afr-tick { position: absolute; width: 2px; height: 8px; margin-left: -1px; background: #8c98ab; }
.afr-tick.afr-kind-agent { background: var(--accent); }
.afr-tick.afr-kind-signal { background: var(--fail); width: 3px; }
.afr-counter { font-variant-numeric: tabular-nums; color: var(--muted); white-space: nowrap; min-width: 92px; text-align: right; }
.afr-frame-info { display: flex; justify-content: space-between; gap: 10px; color: var(--muted); font-variant-numeric: tabular-nums; font-size: 12px; }
.afr-note { margin: 0; padding: 4px 8px; background: var(--warn-bg); color: var(--warn); border-radius: 4px; }
.afr-marks { pointer-events: none; }
.afr-marks-note { color: var(--warn); }
.afr-mark-rect { fill: rgba(111, 168, 220, .35); stroke: #2458d3; }
.afr-mark-point { fill: #f01818; stroke: #fff; }

.afr-timeline { display: flex; flex-direction: column; min-height: 0; }
.afr-warnings { margin: 0 0 8px; padding: 6px 8px 6px 24px; background: var(--warn-bg); color: var(--warn); border-radius: 4px; }
.afr-steps { position: relative; list-style: none; margin: 0; padding: 0; overflow: auto; flex: 1; min-height: 0; }
.afr-step-button { display: flex; flex-wrap: wrap; align-items: baseline; gap: 2px 8px; width: 100%; text-align: left; padding: 5px 6px; border: 0; border-left: 3px solid transparent; border-bottom: 1px solid var(--line); background: none; cursor: pointer; color: inherit; }
.afr-step-button:hover { background: #f0f4fb; }
.afr-past .afr-step-button { color: #4d5666; }
.afr-current .afr-step-button { background: #e8effd; border-left-color: var(--accent); }
.afr-selected .afr-step-button { background: #d5e2fc; border-left-color: var(--accent); box-shadow: inset 0 0 0 1px var(--accent); }
.afr-kind-signal .afr-step-button { background: var(--fail-bg); border-left-color: var(--fail); }
.afr-step-time { font-family: var(--mono); font-size: 11px; color: var(--muted); min-width: 58px; font-variant-numeric: tabular-nums; }
.afr-step-number { font-family: var(--mono); font-size: 11px; color: var(--muted); min-width: 28px; font-variant-numeric: tabular-nums; }
.afr-step-kind { font-size: 11px; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
.afr-step-action { font-weight: 600; }
.afr-step-target, .afr-step-value { font-family: var(--mono); font-size: 12px; word-break: break-all; }
.afr-step-value::before { content: "= "; color: var(--muted); }
.afr-step-label, .afr-step-detail { flex-basis: 100%; padding-left: 66px; color: var(--muted); font-size: 12px; white-space: pre-wrap; word-break: break-word; }
.afr-step-detail { color: var(--fg); }
.afr-source-agent { background: #e3ebff; color: var(--accent); }
.afr-source-recorder { background: var(--fail-bg); color: var(--fail); }
.afr-outcome-ok { background: var(--ok-bg); color: var(--ok); }
.afr-outcome-fail { background: var(--fail); color: #fff; }

.afr-lower { display: grid; grid-template-columns: minmax(0, 1.45fr) minmax(340px, 1fr); gap: 10px; align-items: start; }
.afr-small { font-size: 11px; padding: 1px 8px; border: 1px solid var(--line); background: #fff; border-radius: 4px; cursor: pointer; }
.afr-snapshot-facts { display: flex; flex-wrap: wrap; gap: 2px 14px; color: var(--muted); margin-bottom: 6px; }
.afr-tree { font-family: var(--mono); font-size: 12px; max-height: 70vh; overflow: auto; }
.afr-node > summary { cursor: pointer; padding: 1px 0; list-style-position: outside; }
.afr-node > summary:hover { background: #f0f4fb; }
.afr-children { margin-left: 10px; padding-left: 8px; border-left: 1px dotted var(--line); }
.afr-leaf { padding: 1px 0 1px 14px; }
.afr-node-line { display: inline; }
.afr-node-line > * { margin-right: 6px; }
.afr-tag { color: #8a2a8f; }
.afr-attr-name { color: #9a5a00; }
.afr-attr-value { color: #1b5fa8; }
.afr-node-name { color: var(--ok); }
.afr-node-text { color: var(--fg); font-family: system-ui, sans-serif; white-space: pre-wrap; }
.afr-node-text::before { content: "\\201C"; color: var(--muted); }
.afr-node-text::after { content: "\\201D"; color: var(--muted); }
.afr-rect, .afr-child-count { color: #98a1b0; font-size: 11px; }
.afr-child-count::before { content: "("; } .afr-child-count::after { content: ")"; }
.afr-structure { background: #fff1d6; color: var(--warn); }
.afr-target { background: #fff0b8; outline: 2px solid #e0a400; border-radius: 3px; }
.afr-target-badge { background: #e0a400; color: #fff; }
.afr-tabs { display: inline-flex; gap: 2px; }
.afr-tab { font-size: 12px; font-weight: 600; padding: 2px 10px; border: 1px solid var(--line); background: #fff; border-radius: 4px; cursor: pointer; color: var(--muted); }
.afr-tab[aria-selected="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
.afr-tree-tools { display: inline-flex; gap: 6px; margin-left: auto; }
.afr-page-body > .afr-note { margin-bottom: 6px; }
.afr-change-summary { margin: 0 0 4px; font-size: 13px; font-weight: 600; white-space: pre-wrap; word-break: break-word; }
.afr-change-note { margin: 4px 0; }
.afr-changes { max-height: 70vh; overflow: auto; }

.afr-chips { display: inline-flex; flex-wrap: wrap; gap: 3px; }
.afr-diagnostics dl { display: grid; grid-template-columns: 130px minmax(0, 1fr); gap: 2px 12px; margin: 0; }
.afr-diagnostics dt { color: var(--muted); }
.afr-diagnostics dd { margin: 0; word-break: break-word; font-variant-numeric: tabular-nums; }
.afr-diag-list { margin: 0; padding: 0; list-style: none; }
.afr-diag-list li { padding: 2px 0; border-bottom: 1px solid var(--line); word-break: break-word; }
.afr-diag-list .afr-step-time { margin-right: 8px; }
.afr-stack { margin: 0; white-space: pre-wrap; font-size: 11px; max-height: 160px; overflow: auto; background: #f7f8fa; padding: 4px; }

.afr-network-body { display: grid; grid-template-columns: minmax(0, 1.3fr) minmax(320px, 1fr); gap: 10px; align-items: start; }
.afr-requests { list-style: none; margin: 0; padding: 0; max-height: 60vh; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
/* A HAR holds up to thousands of requests: rows out of view are neither laid out nor painted. */
.afr-request { content-visibility: auto; contain-intrinsic-size: auto 22px; }
.afr-request-button { display: grid; grid-template-columns: 42px 48px 52px minmax(0, 1fr) 70px 60px 54px 150px; gap: 6px; align-items: center; width: 100%; padding: 2px 6px;
  border: 0; border-bottom: 1px solid var(--line); background: none; text-align: left; cursor: pointer; font-size: 12px; font-variant-numeric: tabular-nums; }
.afr-request-button:hover { background: #f0f4fb; }
.afr-request.afr-selected .afr-request-button { background: #e3ebfb; }
.afr-request.afr-caused .afr-request-button { box-shadow: inset 3px 0 0 var(--accent); }
.afr-request.afr-fail .afr-req-status { color: var(--fail); font-weight: 700; }
.afr-req-index, .afr-req-type, .afr-req-size, .afr-req-time { color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.afr-req-method { font-family: var(--mono); }
.afr-req-url { font-family: var(--mono); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.afr-req-bar { width: 150px; height: 10px; background: #f4f6f9; }
.afr-req-span { fill: var(--accent); }
.afr-fail .afr-req-span { fill: var(--fail); }
.afr-req-failure { stroke: var(--fail); stroke-width: 3; }
.afr-request-detail { max-height: 60vh; overflow: auto; min-width: 0; }
.afr-request-detail h3:first-child { margin-top: 0; text-transform: none; letter-spacing: 0; color: var(--fg); font-size: 13px; }
.afr-request-detail dl { display: grid; grid-template-columns: 150px minmax(0, 1fr); gap: 2px 10px; margin: 0; font-size: 12px; }
.afr-request-detail dt { color: var(--muted); word-break: break-all; }
.afr-request-detail dd { margin: 0; font-family: var(--mono); word-break: break-all; }
.afr-req-facts { margin: 2px 0; color: var(--muted); font-size: 12px; }
.afr-req-detail-url { font-family: var(--mono); font-size: 12px; word-break: break-all; margin: 2px 0; }
.afr-body { margin: 0; white-space: pre-wrap; word-break: break-word; font-size: 11px; max-height: 40vh; overflow: auto; background: #f7f8fa; padding: 4px; }
.afr-mask { background: #3b2a5a; color: #fff; border-radius: 3px; padding: 0 2px; }
.afr-link { border: 0; background: none; padding: 0 2px; color: var(--accent); text-decoration: underline; cursor: pointer; }
.afr-step-requests { background: #e3ebfb; color: var(--accent); }

.afr-open { max-width: 760px; margin: 60px auto; display: flex; flex-direction: column; gap: 14px; }
.afr-drop { border: 2px dashed #aab4c4; border-radius: 10px; padding: 34px; text-align: center; background: var(--panel); }
.afr-drop.afr-over { border-color: var(--accent); background: #eef3fe; }
.afr-error { background: var(--fail-bg); color: var(--fail); border: 1px solid #f1b9b9; border-radius: 8px; padding: 10px 12px; white-space: pre-wrap; word-break: break-word; }
.afr-bundles { list-style: none; margin: 0; padding: 0; }
.afr-bundles li { border-bottom: 1px solid var(--line); }
.afr-bundles a { display: grid; grid-template-columns: 150px 1fr 1fr 170px; gap: 12px; align-items: baseline; padding: 6px 4px; color: inherit; text-decoration: none; }
.afr-bundles .afr-reason { font-size: 13px; overflow: hidden; text-overflow: ellipsis; }
.afr-bundles a:hover { background: #f0f4fb; }
@media (max-width: 900px) { .afr-main, .afr-lower, .afr-network-body { grid-template-columns: 1fr; height: auto; } .afr-stage { min-height: 260px; } .afr-steps { max-height: 50vh; } }
`;
