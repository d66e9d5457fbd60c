import { DEFAULT_BUNDLE_DIR } from './bundle-folder';
import type { Command } from './command';
import { parseOptions } from './parse-options';

/** `afr mcp [--dir DIR] [--cdp URL]` */
export interface McpArgs {
  name: 'mcp';
  dir: string;
  cdp?: string;
}

const someValue = (value: string, name: string) => (value === '' ? `${name} needs a value` : undefined);

export const mcpCommand: Command<McpArgs> = {
  name: 'mcp',
  usage: `  afr mcp [--dir DIR] [--cdp URL]
      an MCP server on stdio with the reads above as tools (list_bundles, get_summary, get_steps,
      get_step, get_frame, get_dom, get_console, get_requests, get_request, get_errors, and diff_bundles) over the zips
      directly in DIR (default ~/Downloads/agent-flight-recorder; regular files of at most 1 GiB, each read within
      30 s; not its subfolders, links out of it, FIFOs or devices) and, with --cdp, the bundles
      stored by the recorder of the browser at URL (http://127.0.0.1:9222; needs playwright-core)`,
  briefErrors: true,
  parse(args) {
    const read = parseOptions(args, {
      options: {
        dir: { type: 'string', check: someValue },
        cdp: {
          type: 'string',
          check: (value, name) =>
            someValue(value, name) ?? (/^(https?|wss?):\/\//.test(value) ? undefined : `--cdp needs the browser's DevTools URL (http://127.0.0.1:9222 or ws://…), got ${JSON.stringify(value)}`),
        },
      },
      unknown: (name) => `${name} does not apply to mcp`,
      noTerminator: true,
      // `-` (a positional to parseArgs) reads as an option here, as any word starting with a dash.
      positional: (word) => (word.startsWith('-') ? `${word.split('=')[0]} does not apply to mcp` : `mcp takes no bundle (extra: ${word}): it serves the folder of --dir`),
    });
    if (typeof read === 'string') return read;
    const { dir, cdp } = read.values;
    return { name: 'mcp', dir: typeof dir === 'string' ? dir : DEFAULT_BUNDLE_DIR, ...(typeof cdp === 'string' ? { cdp } : {}) };
  },
  // Loaded on use: the other commands do not pay for the MCP SDK and the client.
  run: async (args, io) => (await import('./mcp-serve')).runMcp(args, io),
};
