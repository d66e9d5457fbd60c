import { errorMessage } from '../shared/error-message';
import { groupFailures, type FailureGroup } from '../triage/failure-groups';
import { folderSource } from './bundle-folder';
import { EXIT_INVALID, EXIT_OK, type Command } from './command';
import { listFleet, parseS3Url, parseSince } from './fleet';
import { openFleetStore, parseWindowArgs, type WindowArgs } from './fleet-command';
import { recordsOfFolder, recordsOfIndex } from './triage-records';

/** `afr triage s3://bucket/prefix | <folder> [--since 24h] [--reason R] [--agent A] [--json]` */
export interface TriageArgs extends WindowArgs {
  name: 'triage';
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
      the failures of the window folded into groups by fingerprint (one cause on other orders, users,
      times and pages of one kind), biggest first: count, NEW or GROWING against the window before,
      first and last seen, agents, pages and the newest bundles (to afr pull or open)`,
  parse(args) {
    const parsed = parseWindowArgs('triage', args, 'triage needs a location: afr triage s3://bucket/prefix or afr triage <folder of bundles>');
    return typeof parsed === 'string' ? parsed : { name: 'triage', ...parsed };
  },
  async run(args, io, print) {
    try {
      const until = io.now().getTime();
      const since = parseSince(args.since, until);
      // The window before, of the same length, is the baseline of NEW and GROWING.
      const from = since - (until - since);
      let read: { records: ReturnType<typeof recordsOfIndex>; skipped: string[] };
      if (args.location.startsWith('s3://')) {
        const store = await openFleetStore(io, print);
        if (typeof store === 'number') return store;
        const fleet = await listFleet(store, parseS3Url(args.location), { since: from, until, reason: args.reason, agent: args.agent });
        read = { records: recordsOfIndex(fleet.records), skipped: fleet.unreadable.map((key) => `${key}: not an index record`) };
      } else {
        const folder = await recordsOfFolder(folderSource(args.location), from, until);
        read = { records: folder.records.filter((r) => (args.reason === undefined || r.reason === args.reason) && (args.agent === undefined || r.agent === args.agent)), skipped: folder.skipped };
      }
      const groups = groupFailures(read.records, { since, until });
      const total = groups.reduce((n, g) => n + g.count, 0);
      if (args.json) print.json({ since: new Date(since).toISOString(), until: new Date(until).toISOString(), failures: total, groups, skipped: read.skipped });
      else print.out(triageLines(groups, total));
      print.err(read.skipped.map((line) => `afr: ${line}, left out`));
      return EXIT_OK;
    } catch (error) {
      print.err([`afr: ${args.location}: ${errorMessage(error)}`]);
      return EXIT_INVALID;
    }
  },
};
