import { replayFixture } from '../reads/replay-fixture';
import { EXIT_OK, EXIT_USAGE } from './command';
import { readCommand } from './read-command';
import { describeReadError } from './read-error';

export const fixtureCommand = readCommand(
  'fixture',
  `  afr fixture <bundle.zip> [--out file.json] [--force]
      the failure as a replay fixture (schemas/json/replay-fixture.schema.json): the model calls'
      messages, the tool history with sha256 hashes of each call's masked arguments and result, the
      model's settings, the failure; JSON on stdout, or written to --out`,
  async ({ args, reader, io, print }) => {
    const fixture = await replayFixture(reader);
    if (args.out === undefined) {
      print.json(fixture);
      return EXIT_OK;
    }
    try {
      await io.writeFile(args.out, new TextEncoder().encode(`${JSON.stringify(fixture, null, 2)}\n`), args.force === true);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      print.err([`afr: ${args.out}: ${code === 'EEXIST' ? 'exists (--force replaces it)' : describeReadError(args.out, error).slice(args.out.length + 2)}`]);
      return EXIT_USAGE;
    }
    const failed = fixture.tool_history.filter((t) => t.status !== 'ok').length;
    print.out([
      `wrote ${args.out}: ${fixture.fixture_id}, ${fixture.messages.length} messages, ${fixture.tool_history.length} tool calls (${failed} failed), failure ${fixture.failure_type}`,
    ]);
    return EXIT_OK;
  },
);
