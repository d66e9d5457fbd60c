import { errorMessage } from '../shared/error-message';
import type { FailureGroup } from '../triage/failure-groups';
import { EXIT_INVALID, EXIT_OK, type Command, type Printer } from './command';
import { parseSince } from './fleet';
import { parseWindowArgs, type WindowArgs } from './fleet-command';
import { readFailureGroups } from './triage-read';

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
      const progress = throttledProgress(print);
      const result = await readFailureGroups(
        { location: args.location, since, until, reason: args.reason, agent: args.agent },
        { ...(io.fleetStore ? { fleetStore: io.fleetStore } : {}), progress },
      );
      print.progress(null);
      const { groups, failures, skipped, unreadable } = result;
      if (args.json) print.json({ since: new Date(since).toISOString(), until: new Date(until).toISOString(), failures, groups, skipped, unreadable });
      else print.out(triageLines(groups, failures));
      print.err([...skipped.lines('afr'), ...unreadable.map((line) => `afr: ${line}, left out`)]);
      return EXIT_OK;
    } catch (error) {
      print.progress(null);
      print.err([`afr: ${args.location}: ${errorMessage(error)}`]);
      return EXIT_INVALID;
    }
  },
};

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
