import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { test, expect } from './support/fixtures';
import { ROOT_DIR } from './support/launch';
import { findSecrets } from './support/bundle';
import { secretVariants } from './support/secrets';
import { runDemoAgent } from './demo/demo-agent';
import { failureFrame, failureStep, frameOfStep } from '../src/bundle-format/story';
import { failureTime } from '../src/bundle-format/views';
import type { TimelineNode } from '../schemas/timeline';

/*
 * The demo's own bundle (`npm run demo`'s agent) read by every reader: the viewer opens at the
 * failure; the "Place order" click has one number and one frame in the viewer, `afr step`,
 * `afr frame --step` and MCP `get_frame`; the agent's first step names the page it was posted on.
 * `afr` runs as the demo tells a user to (`npx afr`: bin/afr.mjs in this checkout).
 */

const AFR = path.join(ROOT_DIR, 'bin/afr.mjs');
const run = promisify(execFile);
const afr = async (...args: string[]) => (await run(process.execPath, [AFR, ...args], { encoding: 'utf8', cwd: ROOT_DIR })).stdout;
const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');

/** The node whose `id` attribute is `id`, anywhere in a page's tree. */
function byId(node: TimelineNode, id: string): TimelineNode | null {
  if (node.attributes?.id === id) return node;
  for (const child of node.children ?? []) {
    const hit = byId(child, id);
    if (hit) return hit;
  }
  return null;
}

test('the demo bundle tells one story: the viewer opens at the failure, every reader gives a step one number and one frame, the first step names its own page', async ({ recorder, site }, testInfo) => {
  test.setTimeout(180_000);
  const { id, zip, bundle } = await runDemoAgent(recorder, site.origin);
  expect(bundle.manifest.failure_reason).toBe('http_5xx');
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
  const frames = bundle.manifest.frames;
  const steps = bundle.steps.steps;
  const failedAt = failureTime(bundle);
  const screenAtFailure = failureFrame(frames, failedAt);
  const failed = failureStep(steps, failedAt);
  expect(screenAtFailure).toBeGreaterThanOrEqual(0);
  // The capture rate is the window's: its captures over its seconds (never 0 with frames in it).
  const captures = frames.reduce((n, f) => n + (f.captures ?? 1), 0);
  const windowSeconds = (Date.parse(bundle.diagnostics.capture.window_end) - frames[0]!.ts) / 1000;
  expect(bundle.diagnostics.capture.fps).toBeCloseTo(captures / windowSeconds, 1);
  // The browser's own favicon request is nobody's failure.
  expect(steps.filter((s) => s.kind === 'signal' && String(s.detail?.request_url ?? '').endsWith('/favicon.ico'))).toEqual([]);

  // The viewer's first view: the screen at the failure, the failing step selected and in view.
  const viewer = await recorder.context.newPage();
  await viewer.setViewportSize({ width: 1280, height: 800 });
  await viewer.goto(`chrome-extension://${recorder.extensionId}/viewer.html?id=${id}`);
  const image = viewer.locator('[data-testid="frame-image"]');
  await expect(image).toHaveAttribute('data-frame', frames[screenAtFailure]!.name);
  await expect(viewer.locator('[data-testid="frame-counter"]')).toHaveText(`frame ${screenAtFailure + 1} / ${frames.length}`);
  await expect(image).toBeInViewport();
  const selected = viewer.locator('[data-testid="timeline"] > li.afr-selected');
  await expect(selected).toHaveAttribute('data-step', String(failed + 1));
  await expect(selected.locator('[data-testid="step-number"]')).toHaveText(`#${failed + 1}`);
  await expect(selected).toBeInViewport();
  await viewer.screenshot({ path: testInfo.outputPath('demo-viewer-first-view.png') });

  // The decisive click: one number, one frame, whoever reads it.
  const click = steps.findIndex((s) => s.kind === 'click' && typeof s.target === 'object' && s.target?.selector.includes('place-order'));
  expect(click).toBeGreaterThanOrEqual(0);
  const number = click + 1;
  const frame = frameOfStep(frames, steps[click]!) + 1;
  await viewer.locator(`[data-testid="timeline"] > li[data-step="${number}"] button`).click();
  await expect(viewer.locator('[data-testid="page-caption"]')).toHaveText(new RegExp(`^at step #${number}: click button "Place order"`));
  await expect(viewer.locator('[data-testid="frame-counter"]')).toHaveText(`frame ${frame} / ${frames.length}`);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-demo-story-'));
  try {
    const zipPath = path.join(dir, `${id}.zip`);
    writeFileSync(zipPath, zip);
    const stepText = await afr('step', zipPath, String(number));
    expect(stepText.split('\n')[0]).toMatch(new RegExp(`^#${number} .* click "click" on .*Place order.* \\[frame ${frame}\\]$`));
    expect(stepText).toContain(`  frame: ${frame} (`);
    // The page's file name as it is, never quoted twice.
    expect(stepText).toMatch(/\n {2}page snapshot: snapshots\/page-\d{3}\.json\n/);
    const frameText = await afr('frame', zipPath, '--step', String(number), '--out', path.join(dir, 'step.png'));
    expect(frameText).toMatch(new RegExp(`^frame ${frame} of ${frames.length} \\(${frames[frame - 1]!.name}\\)`));
    const summary = await afr('summary', zipPath);
    expect(summary).toContain(`afr frame ${zipPath} ${screenAtFailure + 1}\n`);
    expect(summary).toContain(`afr step ${zipPath} ${failed + 1}\n`);

    const client = new Client({ name: 'afr-demo-story', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [AFR, 'mcp', '--dir', dir], cwd: ROOT_DIR, stderr: 'pipe' }));
    try {
      const result = (await client.callTool({ name: 'get_frame', arguments: { bundle: id, step: number } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toMatch(new RegExp(`frame ${frame} of ${frames.length} \\(${frames[frame - 1]!.name}\\)`));
      const stepResult = (await client.callTool({ name: 'get_step', arguments: { bundle: id, index: number } })) as CallToolResult;
      expect(textOf(stepResult).split('\n')[0]).toMatch(new RegExp(`^#${number} .*\\[frame ${frame}\\]$`));
    } finally {
      await client.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // The agent's first step ("open the shop", posted right after the page loaded) names the page it was
  // posted on: the cart still empty, not the page after the two clicks that followed it.
  const first = steps.find((s) => s.source === 'agent' && s.action === 'open the shop')!;
  expect(first.snapshot, 'the first agent step names a page').toBeDefined();
  const page = JSON.parse(bundle.files.get(first.snapshot!)!.toString('utf8')) as { snapshot: { at: number; url: string; root: TimelineNode } };
  expect(page.snapshot.url).toBe(`${site.origin}/`);
  expect(byId(page.snapshot.root, 'cart-count')?.text).toBe('0');
  // Taken as the step was posted (the page bridge takes it), well before the first click.
  const firstClick = steps.find((s) => s.kind === 'click')!;
  expect(page.snapshot.at).toBeLessThan(firstClick.ts);
});
