import { DEFAULT_BUNDLE_DIR } from './bundle-folder';

/** `afr mcp [--dir DIR] [--cdp URL]` */
export interface McpCommand {
  name: 'mcp';
  dir: string;
  cdp?: string;
}

export const MCP_USAGE = `  afr mcp [--dir DIR] [--cdp URL]
      an MCP server on stdio with the reads above as tools (list_bundles, get_summary, get_steps,
      get_step, get_frame, get_dom, get_console, get_requests, get_errors) over the zips of DIR
      (default ~/Downloads/agent-flight-recorder) and, with --cdp, the bundles stored by the recorder
      of the browser at URL (http://127.0.0.1:9222; needs playwright-core)`;

/** Reads `mcp` arguments (after the verb); a string is a usage error. */
export function parseMcpArgs(args: readonly string[]): McpCommand | string {
  const command: McpCommand = { name: 'mcp', dir: DEFAULT_BUNDLE_DIR };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name !== '--dir' && name !== '--cdp') return arg.startsWith('-') ? `${name} does not apply to mcp` : `mcp takes no bundle (extra: ${arg}): it serves the folder of --dir`;
    const value = inline ?? args[(i += 1)];
    if (value === undefined || value === '') return `${name} needs a value`;
    if (name === '--dir') command.dir = value;
    else if (!/^(https?|wss?):\/\//.test(value)) return `--cdp needs the browser's DevTools URL (http://127.0.0.1:9222 or ws://…), got ${JSON.stringify(value)}`;
    else command.cdp = value;
  }
  return command;
}
