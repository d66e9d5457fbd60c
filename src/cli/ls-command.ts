import { errorMessage } from '../shared/error-message';
import { EXIT_INVALID, EXIT_OK, type Command } from './command';
import { fleetTableLines, listFleet, parseS3Url, parseSince } from './fleet';
import { openFleetStore, parseWindowArgs, type WindowArgs } from './fleet-command';
import { escapeControls } from './safe-text';

/** `afr ls s3://bucket/prefix [--since 24h] [--reason R] [--agent A] [--json]` */
export interface LsArgs extends WindowArgs {
  name: 'ls';
}

export const lsCommand: Command<LsArgs> = {
  name: 'ls',
  usage: `  afr ls s3://bucket/prefix [--since 24h] [--reason R] [--agent A] [--json]
      the bundles a fleet delivered to the bucket in the window (index objects), newest first`,
  parse(args) {
    const parsed = parseWindowArgs('ls', args, 'ls needs a location: afr ls s3://bucket/prefix');
    if (typeof parsed === 'string') return parsed;
    const { values: _values, ...window } = parsed;
    return { name: 'ls', ...window };
  },
  async run(args, io, print) {
    const store = await openFleetStore(io, print);
    if (typeof store === 'number') return store;
    try {
      const now = io.now().getTime();
      const { records, unreadable } = await listFleet(store, parseS3Url(args.location), { since: parseSince(args.since, now), until: now, reason: args.reason, agent: args.agent });
      if (args.json) print.json({ bundles: records, unreadable });
      else print.out(fleetTableLines(records));
      print.err(unreadable.map((key) => `afr: ${escapeControls(key)}: not an index record, left out`));
      return EXIT_OK;
    } catch (error) {
      print.err([`afr: ${args.location}: ${errorMessage(error)}`]);
      return EXIT_INVALID;
    }
  },
};
