import { DEFAULT_FRAME_OPTIONS, readFrame, type FramePick } from '../reads/frames';
import { frameText } from '../reads/render-text';
import { EXIT_OK, EXIT_USAGE } from './command';
import { encodePngNode } from './png-node';
import { readCommand } from './read-command';
import { describeReadError } from './read-error';

export const frameCommand = readCommand(
  'frame',
  `  afr frame <bundle.zip> <N> | --at <ms> | --step <N> [--out file.png] [--width W] [--force] [--json]
      frame N (1-based) as a PNG at most W px wide (default ${DEFAULT_FRAME_OPTIONS.maxWidth}), or the frame nearest a moment
      (ms from the failure, negative before it) or a step; written to --out (default
      <bundle id>-frame-N.png in the current folder)`,
  async ({ args, reader, io, print }) => {
    const pick: FramePick = args.index !== undefined ? { index: args.index } : args.at !== undefined ? { atMs: args.at } : { step: args.step! };
    const frame = await readFrame(reader, pick, { ...DEFAULT_FRAME_OPTIONS, maxWidth: args.width ?? DEFAULT_FRAME_OPTIONS.maxWidth }, encodePngNode);
    const out = args.out ?? `${reader.manifest.bundle_id.replace(/[^\w.-]/g, '_')}-frame-${frame.index}.png`;
    try {
      await io.writeFile(out, frame.png, args.force === true);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      print.err([`afr: ${out}: ${code === 'EEXIST' ? 'exists (--force replaces it)' : describeReadError(out, error).slice(out.length + 2)}`]);
      return EXIT_USAGE;
    }
    const { png: _png, ...view } = frame;
    if (args.json) print.json({ ...view, bytes: frame.png.byteLength, file: out });
    else print.out(frameText(frame, out));
    return EXIT_OK;
  },
);
