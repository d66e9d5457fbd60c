import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// The import rules of eslint.config.js, run on one-line files placed in each layer: a wrong arrow
// must fail `npm run lint`, a right one must pass.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The boundaries errors (a wrong arrow, a file in no layer) of a file at `file` that holds only `source`. */
async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const probe = 1;\n`, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId?.startsWith('boundaries/')).map((m) => m.message);
}

describe('import rules', () => {
  it.each([
    ['page-side code never imports worker code', 'src/page/probe.ts', "import { Recorder } from '../recorder/recorder';"],
    ['snapshot code is page-side', 'src/snapshot/probe.ts', "import { FrameRing } from '../ring/frame-ring';"],
    ['the content script wires page-side code only', 'entrypoints/content.ts', "import { FrameRing } from '../src/ring/frame-ring';"],
    ['the service worker never imports page-side code', 'entrypoints/background.ts', "import { startPageBridge } from '../src/page/page-bridge';"],
    ['core folders never import platform/', 'src/ring/probe.ts', "import { IdbFrameStore } from '../platform/idb-frame-store';"],
    ['core folders never import entrypoints/', 'src/recorder/probe.ts', "import background from '../../entrypoints/background';"],
    ['the writer never imports a reader', 'src/bundle/probe.ts', "import { h } from '../viewer/dom';"],
    ['a reader never imports the writer', 'src/viewer/probe.ts', "import { packageBundle } from '../bundle/packager';"],
    ['the command line reads through the format, not the writer', 'src/cli/probe.ts', "import { packageBundle } from '../bundle/packager';"],
    ['no folder imports upward', 'src/ring/probe.ts', "import { Recorder } from '../recorder/recorder';"],
    ['shared helpers are a leaf', 'src/shared/probe.ts', "import { createTextMasker } from '../redact/mask-text';"],
    ['schemas are a leaf', 'schemas/probe.ts', "import { createTextMasker } from '../src/redact/mask-text';"],
    ['the run diff never imports the command line', 'src/diff/probe.ts', "import { runCli } from '../cli/main';"],
    ['the published client stands alone', 'src/client/probe.ts', "import { errorMessage } from '../shared/error-message';"],
    ["the timeline's page side never imports its worker side", 'src/timeline/page/probe.ts', "import { TimelineKeeper } from '../store/timeline-keeper';"],
    ["the timeline's worker side never imports its page side", 'src/timeline/store/probe.ts', "import { startTimeline } from '../page/timeline-recorder';"],
    ["the timeline's data imports neither side", 'src/timeline/data/probe.ts', "import { startTimeline } from '../page/timeline-recorder';"],
    ["the timeline's page side is not the page bridge", 'src/timeline/page/probe.ts', "import { startPageBridge } from '../../page/page-bridge';"],
    ['the bundle writer never imports the page-side timeline', 'src/bundle/probe.ts', "import { startTimeline } from '../timeline/page/timeline-recorder';"],
    ['the content script never imports the worker-side timeline', 'entrypoints/content.ts', "import { TimelineKeeper } from '../src/timeline/store/timeline-keeper';"],
    ['the service worker never imports the page-side timeline', 'entrypoints/background.ts', "import { startPageTimeline } from '../src/timeline/page/page-timeline';"],
    ['a file outside every layer (here directly in src/timeline/) fails', 'src/timeline/probe.ts', "import { Recorder } from '../recorder/recorder';"],
  ])('refuses: %s', async (_rule, file, source) => {
    expect(await boundaryErrors(file, source)).toHaveLength(1);
  });

  it.each([
    ['page-side code may use shared masking', 'src/page/probe.ts', "import { createTextMasker } from '../redact/mask-text';"],
    ['the recorder uses the core below it', 'src/recorder/probe.ts', "import { FrameRing } from '../ring/frame-ring';"],
    ['platform implements core ports', 'src/platform/probe.ts', "import type { FrameStore } from '../ring/ports';"],
    ['the service worker wires the recorder', 'entrypoints/background.ts', "import { Recorder } from '../src/recorder/recorder';"],
    ['the command line uses the run diff', 'src/cli/probe.ts', "import { diffRuns } from '../diff/diff-runs';"],
    ['the run diff reads through the reads', 'src/diff/probe.ts', "import type { BundleReader } from '../reads/open-bundle';"],
    ['anything may use the shared helpers', 'src/viewer/probe.ts', "import { errorMessage } from '../shared/error-message';"],
    ["the timeline's page side uses its data", 'src/timeline/page/probe.ts', "import { splitBase } from '../data/base-parts';"],
    ["the timeline's worker side uses its data", 'src/timeline/store/probe.ts', "import { BaseParts } from '../data/base-parts';"],
    ['the content script wires the page-side timeline', 'entrypoints/content.ts', "import { startPageTimeline } from '../src/timeline/page/page-timeline';"],
    ['the service worker wires the worker-side timeline', 'entrypoints/background.ts', "import { TimelineKeeper } from '../src/timeline/store/timeline-keeper';"],
  ])('allows: %s', async (_rule, file, source) => {
    expect(await boundaryErrors(file, source)).toEqual([]);
  });
});

describe('the layers', () => {
  it('import no layer above them: the table has no cycle', async () => {
    const { LAYERS } = (await import(pathToFileURL(path.join(root, 'eslint.config.js')).href)) as { LAYERS: Record<string, { may: string[] }> };
    const seen = new Map<string, 'visiting' | 'done'>();
    const cycle: string[] = [];
    const visit = (layer: string, trail: string[]): void => {
      if (seen.get(layer) === 'done') return;
      if (seen.get(layer) === 'visiting') return void cycle.push([...trail, layer].join(' → '));
      seen.set(layer, 'visiting');
      for (const below of LAYERS[layer]?.may ?? []) visit(below, [...trail, layer]);
      seen.set(layer, 'done');
    };
    for (const layer of Object.keys(LAYERS)) visit(layer, []);
    expect(cycle).toEqual([]);
    // Every name a layer may import is a layer.
    expect(Object.values(LAYERS).flatMap((l) => l.may.filter((m) => !(m in LAYERS)))).toEqual([]);
  });
});
