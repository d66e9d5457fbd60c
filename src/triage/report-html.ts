import { cspHash } from '../bundle-format/viewer-html';
import type { FailureGroup } from './failure-groups';

/*
 * `afr triage --html`: one self-contained page (no script, no request: inline CSS allowed by its hash,
 * inline SVG drawn here). Everything in it but our own words came from index objects anyone who can
 * write the bucket wrote, so every string goes through `escapeHtml`, and a link is kept only when its
 * scheme is one this report makes (https, http for a store on loopback, the extension's viewer, or a
 * relative file path).
 */

/** A bundle as the report links it: its key or file, and where a click opens it (null: shown, not linked). */
export interface BundleLink {
  label: string;
  /** The extension's viewer opening it (`viewer.html?bundle=<presigned url>`), or the file beside the report. */
  open: string | null;
  /** The zip itself (a presigned GET link), when there is one. */
  download: string | null;
}

export interface ReportInput {
  title: string;
  since: number;
  until: number;
  failures: number;
  groups: readonly FailureGroup[];
  /** The links of each group's newest bundles, by location. */
  links(location: string): BundleLink;
  skipped: number;
}

/** Groups drawn in the chart (the biggest); the table lists all. */
const CHARTED = 8;
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}h1{font-size:20px}table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #ddd;padding:6px 8px;text-align:left;vertical-align:top}th{background:#f4f4f4}
.n{text-align:right;font-variant-numeric:tabular-nums}.sig{font-family:ui-monospace,monospace;word-break:break-all}
.mark{font-weight:bold;color:#b00}.muted{color:#666}svg text{font:11px system-ui,sans-serif;fill:#444}
.key{display:inline-block;width:10px;height:10px;margin-right:4px}`;

/** Text for HTML, in an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A link the report may carry: https, http on this machine, the extension's viewer, or a relative path without a scheme. */
export function safeHref(url: string | null): string | null {
  if (url === null) return null;
  if (/^(https:|chrome-extension:\/\/[a-p]{32}\/)/i.test(url)) return url;
  if (/^http:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?\//i.test(url)) return url;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('//') && !/[\\\p{Cc}]/u.test(url)) return url;
  return null;
}

const iso = (ts: number) => new Date(ts).toISOString().replace(/\.\d+Z$/, 'Z');

/** The failures of the charted groups over the window, one line each, drawn by hand (a few dozen elements). */
export function chartSvg(groups: readonly FailureGroup[], since: number, until: number): string {
  const charted = groups.slice(0, CHARTED);
  const width = 720;
  const height = 200;
  const left = 36;
  const bottom = 24;
  const buckets = charted[0]?.histogram.length ?? 0;
  const most = Math.max(1, ...charted.flatMap((g) => g.histogram));
  const x = (i: number) => left + ((width - left - 8) * (i + 0.5)) / Math.max(1, buckets);
  const y = (n: number) => 8 + (height - bottom - 8) * (1 - n / most);
  const lines = charted.map((g, k) => {
    const points = g.histogram.map((n, i) => `${x(i).toFixed(1)},${y(n).toFixed(1)}`).join(' ');
    return `<polyline class="series" data-fingerprint="${escapeHtml(g.fingerprint)}" points="${points}" fill="none" stroke="${COLORS[k % COLORS.length]}" stroke-width="2"/>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" id="chart" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="failures over time per group">`,
    `<line x1="${left}" y1="${y(0)}" x2="${width - 8}" y2="${y(0)}" stroke="#999"/><line x1="${left}" y1="8" x2="${left}" y2="${y(0)}" stroke="#999"/>`,
    `<text x="${left - 4}" y="${y(most) + 4}" text-anchor="end">${most}</text><text x="${left - 4}" y="${y(0)}" text-anchor="end">0</text>`,
    `<text x="${left}" y="${height - 6}">${escapeHtml(iso(since))}</text><text x="${width - 8}" y="${height - 6}" text-anchor="end">${escapeHtml(iso(until))}</text>`,
    ...lines,
    '</svg>',
  ].join('\n');
}

function linkHtml(link: BundleLink): string {
  const open = safeHref(link.open);
  const download = safeHref(link.download);
  const label = escapeHtml(link.label);
  return `${open ? `<a href="${escapeHtml(open)}" rel="noreferrer">${label}</a>` : label}${download ? ` <a href="${escapeHtml(download)}" rel="noreferrer" class="muted">zip</a>` : ''}`;
}

function rowHtml(g: FailureGroup, k: number, links: ReportInput['links']): string {
  const key = k < CHARTED ? `<svg class="key" width="10" height="10"><rect width="10" height="10" fill="${COLORS[k % COLORS.length]}"/></svg>` : '';
  const mark = g.trend === 'steady' ? '' : `<span class="mark">${g.trend === 'new' ? 'NEW' : 'GROWING'}</span> `;
  const list = (values: readonly string[]) => values.map(escapeHtml).join('<br>');
  return `<tr data-fingerprint="${escapeHtml(g.fingerprint)}"><td class="n">${key}${g.count}</td><td>${mark}<span class="muted">${g.previous} before</span></td>
<td class="sig">${escapeHtml(g.fingerprint)}<br>${escapeHtml(g.signature)}</td><td>${escapeHtml(iso(g.firstSeen))}<br>${escapeHtml(iso(g.lastSeen))}</td>
<td>${list(g.agentVersions.length ? g.agentVersions : g.agents)}</td><td class="sig">${list(g.pages.slice(0, 5))}</td><td>${g.newest.map((location) => linkHtml(links(location))).join('<br>')}</td></tr>`;
}

/** The report page and its CSP (a hash of its one style element; nothing else may load or run). */
export async function triageReportHtml(input: ReportInput): Promise<string> {
  const csp = ["default-src 'none'", `style-src ${await cspHash(CSS)}`, "img-src 'none'", "base-uri 'none'", "form-action 'none'"].join('; ');
  const rows = input.groups.map((g, k) => rowHtml(g, k, input.links));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(input.title)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${escapeHtml(input.title)}</h1>
<p>${input.failures} failures in ${input.groups.length} groups, ${escapeHtml(iso(input.since))} to ${escapeHtml(iso(input.until))}${input.skipped ? `; ${input.skipped} index objects left out (see the command's output)` : ''}.</p>
${input.groups.length ? chartSvg(input.groups, input.since, input.until) : '<p>No failures in that window.</p>'}
<table>
<thead><tr><th>Count</th><th>Trend</th><th>Fingerprint and signature</th><th>First and last seen</th><th>Agents</th><th>Pages</th><th>Newest bundles</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</body>
</html>
`;
}
