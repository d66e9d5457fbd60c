import { describe, expect, it } from 'vitest';
import { renderJsonSchemas } from '../../schemas/generate';
import { editBundle, editJson } from '../../test/fixtures/cli/make-bundle';
import { makeSecretBundle } from '../../test/fixtures/cli/secret-bundle';
import { openBundleZip } from '../bundle-format/open-zip';
import { buildViewerHtml, embeddedDataText, viewerCsp, type ViewerData } from '../bundle-format/viewer-html';
import { bundleSchemaFileNames, type BundleJsonSchemas } from './bundle-json-schemas';
import { inspectionLines } from './format-inspection';
import { inspectBundle } from './inspect-bundle';
import { validateBundle, type Problem } from './validate-bundle';
import type { ExpectedViewer } from './viewer-check';

// `afr validate` and `afr inspect` on a bundle with a DOM timeline: three pages at the steps
// (`snapshots/page-00N.json`), steps that name them, `snapshot.json.previous`, `outline.md`, and a
// `viewer.html` that embeds the pages. (The secret bundle is such a bundle; its secrets do not matter here.)

const rendered = renderJsonSchemas();
const schemas: BundleJsonSchemas = Object.fromEntries(
  Object.entries(bundleSchemaFileNames()).map(([file, schemaFile]) => [file, JSON.parse(rendered[schemaFile] ?? '{}') as object]),
);
const VIEWER: ExpectedViewer = { version: '0.1.0', script: 'document.title = "viewer";' };
const viewer = async () => VIEWER;
const withPages = makeSecretBundle(VIEWER.script);
const decode = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
type Files = Map<string, Uint8Array>;

/** viewer.html rebuilt as this version writes it, around data `edit` changed: only the data differs from the files. */
async function editEmbedded(files: Files, edit: (data: ViewerData) => void): Promise<void> {
  const data = JSON.parse(embeddedDataText(decode(files.get('viewer.html')))!) as ViewerData;
  edit(data);
  files.set('viewer.html', new TextEncoder().encode(buildViewerHtml(VIEWER.script, data, await viewerCsp(VIEWER.script))));
}

/** The bundle with its files changed by `edit` (which may take its time). */
async function rewrite(zip: Uint8Array, edit: (files: Files) => void | Promise<void>): Promise<Uint8Array> {
  const files = new Map((await openBundleZip(zip)).files);
  await edit(files);
  return editBundle(zip, (f) => {
    f.clear();
    for (const [name, bytes] of files) f.set(name, bytes);
  });
}

describe('afr validate on the pages at the steps', () => {
  it('accepts a bundle whose steps, snapshot.json and viewer.html name and embed its pages', async () => {
    const report = await validateBundle(await withPages, schemas, viewer);
    expect(report.problems).toEqual([]);
    expect(report.summary).toContain('(15 files,');
  });

  it.each<[string, (files: Files) => void | Promise<void>, Problem]>([
    [
      'a page off its schema',
      (f) => editJson(f, 'snapshots/page-002.json', (page) => ((page.snapshot as Record<string, unknown>).checkpoint = 'two')),
      { file: 'snapshots/page-002.json', pointer: '/snapshot/checkpoint', message: 'must be integer' },
    ],
    [
      'a page that is not JSON',
      (f) => f.set('snapshots/page-003.json', new TextEncoder().encode('{"version":')),
      { file: 'snapshots/page-003.json', pointer: '', message: expect.stringMatching(/^not valid JSON/) as unknown as string },
    ],
    [
      'a page of another bundle',
      (f) => editJson(f, 'snapshots/page-001.json', (page) => (page.bundle_id = 'afr-other')),
      { file: 'snapshots/page-001.json', pointer: '/bundle_id', message: expect.stringMatching(/^is "afr-other", manifest.json says/) as unknown as string },
    ],
    [
      'a step whose page is not in the zip',
      (f) => f.delete('snapshots/page-001.json'),
      { file: 'steps.json', pointer: '/steps/3/snapshot', message: 'names snapshots/page-001.json, which is not in the zip' },
    ],
    [
      'a step whose changes lead to a page not in the zip',
      (f) => f.delete('snapshots/page-003.json'),
      { file: 'steps.json', pointer: '/steps/9/changes/to', message: 'names snapshots/page-003.json, which is not in the zip' },
    ],
    [
      'snapshot.json naming a previous page not in the zip',
      (f) => editJson(f, 'snapshot.json', (s) => (s.previous = 'snapshots/page-009.json')),
      { file: 'snapshot.json', pointer: '/previous', message: 'names snapshots/page-009.json, which is not in the zip' },
    ],
    [
      'snapshot.json naming a previous file outside snapshots/',
      (f) => editJson(f, 'snapshot.json', (s) => (s.previous = 'manifest.json')),
      { file: 'snapshot.json', pointer: '/previous', message: 'is "manifest.json", not a name of snapshots/page-NNN.json' },
    ],
    [
      'a viewer.html that shows another page at a step',
      (f) => editEmbedded(f, (data) => (data.step_snapshots!['snapshots/page-002.json'] = data.step_snapshots!['snapshots/page-001.json']!)),
      { file: 'viewer.html', pointer: '/step_snapshots', message: "its embedded snapshots/page-002.json is not the zip's snapshots/page-002.json: the viewer would show another page at that step" },
    ],
    [
      'a viewer.html that leaves a page out',
      (f) => editEmbedded(f, (data) => delete data.step_snapshots!['snapshots/page-003.json']),
      { file: 'viewer.html', pointer: '/step_snapshots', message: 'does not embed snapshots/page-003.json, which the zip holds' },
    ],
    [
      'a viewer.html that embeds a page the zip lacks',
      (f) => editEmbedded(f, (data) => (data.step_snapshots!['snapshots/page-004.json'] = '{}\n')),
      { file: 'viewer.html', pointer: '/step_snapshots', message: 'embeds "snapshots/page-004.json", which is not a page in the zip' },
    ],
  ])('reports %s', async (_name, edit, problem) => {
    const fixed = await rewrite(await withPages, edit);
    const report = await validateBundle(fixed, schemas, viewer);
    expect(report.valid).toBe(false);
    expect(report.problems).toContainEqual(problem);
  });
});

describe('afr inspect on the pages at the steps', () => {
  it('lists how many pages and their bytes, and outline.md', async () => {
    const inspection = await inspectBundle(await withPages);
    expect(inspection.step_pages).toMatchObject({ count: 3 });
    expect(inspection.step_pages!.bytes).toBeGreaterThan(1000);
    expect(inspection.outline!.bytes).toBeGreaterThan(500);
    const text = inspectionLines(inspection).join('\n');
    expect(text).toMatch(/\n {2}pages {5}3 pages at the steps \(snapshots\/\), \d+(\.\d)? KiB\n/);
    expect(text).toMatch(/\n {2}outline {3}outline\.md, \d+ B\n/);
  });
});
