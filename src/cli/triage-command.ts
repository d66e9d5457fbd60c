import path from 'node:path';
import { RECORDER_EXTENSION_ID } from '../client/extension-key';
import { errorMessage } from '../shared/error-message';
import { triageReportHtml, type BundleLink } from '../triage/report-html';
import type { FailureGroup } from '../triage/failure-groups';
import { EXIT_INVALID, EXIT_OK, type Command, type Printer } from './command';
import { parseSince } from './fleet';
import { parseWindowArgs, type WindowArgs } from './fleet-command';
import { compactedDays } from './compact-day';
import { readFailureGroups, type TriageResult } from './triage-read';

/** `afr triage s3://bucket/prefix | <folder> [--since 24h] [--reason R] [--agent A] [--json] [--html FILE [--presign]]` */
export interface TriageArgs extends WindowArgs {
  name: 'triage';
  /** Where to write the HTML report. */
  html?: string;
  /** Links in the report are presigned GET links, opening in the extension's viewer. */
  presign: boolean;
}

const iso = (ts: number) => new Date(ts).toISOString().replace(/\.\d+Z$/, 'Z');

/** Each group: its count and trend, its signature, then who, where and which bundles, indented. */
export function triageLines(groups: readonly FailureGroup[], total: number): string[] {
  if (groups.length === 0) return ['no failures in that window'];
  const lines = [`${total} failures in ${groups.length} groups, biggest first`];
  for (const g of groups) {
    lines.push('', `${String(g.count).padStart(5)}  ${g.trend === 'steady' ? '' : `${g.trend.toUpperCase()}  `}${g.fingerprint}  ${g.signature}`);
    lines.push(`       seen ${iso(g.firstSeen)} … ${iso(g.lastSeen)}${g.trend === 'steady' || g.trend === 'growing' ? ` (window before: ${g.previous})` : ''}`);
    if (g.agents.length) lines.push(`       agents ${g.agentVersions.length ? g.agentVersions.join(', ') : g.agents.join(', ')}`);
    if (g.pages.length) lines.push(`       pages ${g.pages.slice(0, 5).join(', ')}${g.pages.length > 5 ? ` and ${g.pages.length - 5} more` : ''}`);
    for (const location of g.newest) lines.push(`       ${location}`);
  }
  return lines;
}

export const triageCommand: Command<TriageArgs> = {
  name: 'triage',
  usage: `  afr triage s3://bucket/prefix | <folder> [--since 24h] [--reason R] [--agent A] [--json]
             [--html FILE [--presign]]
      the failures of the window folded into groups by fingerprint (one cause on other orders, users,
      times and pages of one kind), biggest first: count, NEW or GROWING against the window before,
      first and last seen, agents, pages and the newest bundles (to afr pull or open); a folder is a
      local copy of a bucket's prefix (with index/) or a folder of bundle zips. --html writes a
      self-contained report (a table, a chart over time, links to the bundles: with --presign,
      presigned links opening in the recorder's viewer, valid 7 days)`,
  parse(args) {
    const parsed = parseWindowArgs('triage', args, 'triage needs a location: afr triage s3://bucket/prefix or afr triage <folder of bundles>', { takes: ['html'], flags: ['presign'] });
    if (typeof parsed === 'string') return parsed;
    const { values, ...window } = parsed;
    const html = typeof values.html === 'string' && values.html ? values.html : undefined;
    if (values.presign === true && (!html || !window.location.startsWith('s3://'))) return '--presign applies to --html over an s3:// location';
    return { name: 'triage', ...window, ...(html ? { html } : {}), presign: values.presign === true };
  },
  async run(args, io, print) {
    try {
      const until = io.now().getTime();
      const since = parseSince(args.since, until);
      const progress = throttledProgress(print);
      const result = await readFailureGroups(
        { location: args.location, since, until, reason: args.reason, agent: args.agent },
        { ...(io.fleetStore ? { fleetStore: io.fleetStore } : {}), compacted: compactedDays, progress },
      );
      print.progress(null);
      const { groups, failures, skipped, unreadable } = result;
      if (args.html) {
        const links = await bundleLinks(result, args, path.dirname(path.resolve(args.html)));
        const html = await triageReportHtml({ title: `Failures of ${args.location}`, since, until, failures, groups, skipped: skipped.total, links: (location) => links.get(location) ?? { label: location, open: null, download: null } });
        await io.writeFile(args.html, new TextEncoder().encode(html), true);
      }
      if (args.json) print.json({ since: new Date(since).toISOString(), until: new Date(until).toISOString(), failures, groups, skipped, unreadable });
      else print.out([...triageLines(groups, failures), ...(args.html ? ['', `report written to ${args.html}`] : [])]);
      print.err([...skipped.lines('afr'), ...unreadable.map((line) => `afr: ${line}, left out`)]);
      return EXIT_OK;
    } catch (error) {
      print.progress(null);
      print.err([`afr: ${args.location}: ${errorMessage(error)}`]);
      return EXIT_INVALID;
    }
  },
};

/** Presigned links live 7 days, the most SigV4 allows. */
const PRESIGN_SECONDS = 7 * 24 * 3600;

/** A path for an `href`: `/` between parts, each part percent-encoded. */
const hrefOf = (relative: string) => relative.split(path.sep).map(encodeURIComponent).join('/');

/**
 * Each newest bundle's link in the report: in a bucket, with `--presign`, a presigned GET link and the
 * recorder's viewer opening it (`viewer.html?bundle=`); in a local copy or a folder of zips, the zip's
 * path from the report's folder.
 */
async function bundleLinks(result: TriageResult, args: TriageArgs, reportDir: string): Promise<Map<string, BundleLink>> {
  const links = new Map<string, BundleLink>();
  const { index } = result;
  for (const location of result.groups.flatMap((g) => g.newest)) {
    if (index?.bucket) {
      const label = `s3://${index.at.bucket}/${location}`;
      if (!args.presign || !index.store.presign) links.set(location, { label, open: null, download: null });
      else {
        const url = await index.store.presign(index.at.bucket, location, PRESIGN_SECONDS);
        links.set(location, { label, open: `chrome-extension://${RECORDER_EXTENSION_ID}/viewer.html?bundle=${encodeURIComponent(url)}`, download: url });
      }
    } else {
      // A zip key names the bucket's prefix before `bundles/`; a local copy holds what is under the prefix.
      const inFolder = index ? location.slice(location.startsWith('bundles/') ? 0 : location.indexOf('/bundles/') + 1) : location;
      const file = path.resolve(args.location, ...inFolder.split('/'));
      links.set(location, { label: location, open: hrefOf(path.relative(reportDir, file)), download: null });
    }
  }
  return links;
}

/** A progress line at most every 200 ms: a terminal redrawn 10,000 times a second slows the read it reports. */
function throttledProgress(print: Printer, now: () => number = () => performance.now()): (text: string) => void {
  let last = -Infinity;
  return (text) => {
    const at = now();
    if (at - last < 200) return;
    last = at;
    print.progress(`afr triage: ${text}`);
  };
}
