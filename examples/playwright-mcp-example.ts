import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface McpExampleOptions {
  /** The Playwright MCP config file (`playwright-mcp.config.json` of docs/drivers/playwright-mcp.md). */
  configFile: string;
  /** `@playwright/mcp`'s `cli.js`. */
  mcpCli: string;
  /** Origin of the app under test; its `/late-error.html` throws an uncaught exception by itself. */
  appUrl: string;
  /** Where the bundle zip goes. */
  outDir: string;
  /** The MCP server's working directory (where it writes `.playwright-mcp/` snapshots). */
  cwd?: string;
}

export interface McpExampleResult {
  bundleId: string;
  reason: string;
  zipPath: string;
}

// #region docs
// `browser_run_code_unsafe` runs this function with Playwright's `page` in the MCP server, where
// `page.context()` is the persistent context the recorder's service worker runs in, and answers with
// the return value as JSON on the line after "### Result".
const recorderCode = (call: string) => `async (page) => {
  const worker = page.context().serviceWorkers().find((w) => /^chrome-extension:\\/\\/[a-p]{32}\\/background\\.js$/.test(w.url()));
  if (!worker) throw new Error('Agent Flight Recorder is not loaded: check the extension path and userDataDir in the config');
  return await worker.evaluate(${call});
}`;
// #endregion
/** The code the docs give an agent for `browser_run_code_unsafe`: `afr` `call` in the recorder's worker. */
export { recorderCode };

/**
 * The Playwright MCP example of docs/drivers/playwright-mcp.md: a harness talks to `@playwright/mcp` over stdio, its agent opens
 * a page that throws, and the failure bundle comes out through MCP tools only (`browser_run_code_unsafe`
 * reaching the recorder's service worker).
 */
export async function runMcpExample({ configFile, mcpCli, appUrl, outDir, cwd }: McpExampleOptions): Promise<McpExampleResult> {
  const client = new Client({ name: 'shop-agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [mcpCli, '--config', configFile], cwd }));
  try {
    // #region docs
    const tool = async (name: string, args: Record<string, unknown>): Promise<string> => {
      const result = (await client.callTool({ name, arguments: args })) as { content: { text?: string }[]; isError?: boolean };
      const text = result.content.map((part) => part.text ?? '').join('\n');
      if (result.isError) throw new Error(`${name}: ${text}`);
      return text;
    };
    const inRecorder = async (call: string): Promise<unknown> => {
      const answer = /### Result\n(.*)/.exec(await tool('browser_run_code_unsafe', { code: recorderCode(call) }));
      if (!answer?.[1]) throw new Error('browser_run_code_unsafe gave no result');
      return JSON.parse(answer[1]);
    };

    await tool('browser_navigate', { url: `${appUrl}/late-error.html` });
    // The page throws; the recorder bundles the failure by itself. Wait until the bundle is listed.
    let bundles: { id: string; reason: string }[] = [];
    for (let tries = 0; bundles.length === 0 && tries < 30; tries++) {
      await tool('browser_wait_for', { time: 1 });
      bundles = (await inRecorder('() => afr.listBundles()')) as typeof bundles;
    }
    const bundle = bundles[0];
    if (!bundle) throw new Error('no bundle after 30 s');
    // The zip comes back base64-encoded (a few hundred KB to a few MB): keep it out of a model's context.
    const zip = Buffer.from((await inRecorder(`() => afr.exportBundle(${JSON.stringify(bundle.id)})`)) as string, 'base64');
    await mkdir(outDir, { recursive: true });
    const zipPath = path.join(outDir, `${bundle.id}.zip`);
    await writeFile(zipPath, zip);
    // #endregion
    return { bundleId: bundle.id, reason: bundle.reason, zipPath };
  } finally {
    await client.close();
  }
}
