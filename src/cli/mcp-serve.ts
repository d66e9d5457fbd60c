import process from 'node:process';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { browserSource } from './browser-bundles';
import { folderSource } from './bundle-folder';
import { combinedSources } from './bundle-source';
import { EXIT_OK, type CliIo, type ExitCode } from './command';
import { createMcpServer } from './mcp-server';
import { encodePngNode } from './png-node';
import { terminalText } from './safe-text';

/**
 * Serves MCP on stdin/stdout until the client closes stdin; returns the exit status. Nothing else is
 * written to stdout (it carries the protocol); the log goes to stderr.
 */
export async function runMcp(command: { dir: string; cdp?: string }, io: CliIo): Promise<ExitCode> {
  const browser = command.cdp ? browserSource(command.cdp) : null;
  const source = combinedSources([folderSource(command.dir), ...(browser ? [browser] : [])]);
  const server = createMcpServer({ source, encodePng: encodePngNode, version: io.version(), log: (lines) => io.stderr(terminalText(lines)), ...(io.fleetStore ? { fleetStore: io.fleetStore } : {}) });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  io.stderr(terminalText([`afr mcp: serving ${command.dir}${command.cdp ? ` and the recorder at ${command.cdp}` : ''} on stdio`]));
  await closed;
  await browser?.close().catch(() => undefined);
  await server.close().catch(() => undefined);
  return EXIT_OK;
}
