import { describe, expect, it } from 'vitest';
import { renderJsonSchemas } from '../../schemas/generate';
import { BUNDLE_ID, bundleContents, editBundle, editJson, makeBundle } from '../../test/fixtures/cli/make-bundle';
import { bundleSchemaFileNames, type BundleJsonSchemas } from './bundle-json-schemas';
import { loadBundleJsonSchemas } from './node-io';
import { ARCHIVE, validateBundle, validationLines, type Problem, type ValidationReport } from './validate-bundle';
import type { ExpectedViewer } from './viewer-check';

/*
 * The JSON Schemas rendered from the zod sources, i.e. what `npm run schemas` writes to schemas/json/:
 * the writer and the schemas always agree here, even while a schema change is not regenerated yet
 * (schemas/schemas.test.ts is the test that the files on disk are up to date).
 */
const rendered = renderJsonSchemas();
const schemas: BundleJsonSchemas = Object.fromEntries(
  Object.entries(bundleSchemaFileNames()).map(([file, schemaFile]) => [file, JSON.parse(rendered[schemaFile] ?? '{}') as object]),
);

/** The viewer this test's `afr` knows: the fixtures' recorder version and a stand-in script. */
const VIEWER: ExpectedViewer = { version: '0.1.0', script: 'document.title = "viewer";' };
const viewer = async () => VIEWER;

const bytes = (text: string) => new TextEncoder().encode(text);
const validZip = makeBundle();
type Files = Map<string, Uint8Array>;

describe('validateBundle', () => {
  it('accepts a bundle from the recorder’s writer', async () => {
    const report = await validateBundle(await validZip, schemas, viewer);
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ valid: true, bundle_id: BUNDLE_ID });
    expect(report.summary).toBe(`valid: ${BUNDLE_ID} (10 files, 4 frames, 12 steps, failure.mp4 1.5 s, ${report.summary.match(/\d+\.\d KiB/)?.[0]})`);
  });

  it('accepts a bundle without a clip, and one with the viewer.html of this version', async () => {
    const zip = await makeBundle({ clip: null, manifest: { ...bundleContents().manifest, clip: null } });
    const report = await validateBundle(zip, schemas, viewer);
    expect(report.problems).toEqual([]);
    expect(report.summary).toContain('no clip');
    expect((await validateBundle(await makeBundle({ viewerScript: VIEWER.script }), schemas, viewer)).problems).toEqual([]);
  });

  it('accepts a bundle written before diagnostics listed the other tabs', async () => {
    const { other_tabs: _dropped, ...diagnostics } = bundleContents().diagnostics!;
    expect((await validateBundle(await makeBundle({ diagnostics }), schemas, viewer)).problems).toEqual([]);
  });

  it('accepts a bundle whose first frame stands for three identical captures in a row', async () => {
    const contents = bundleContents();
    const [first, ...rest] = contents.frames;
    const frames = [{ ...first!, captures: 3, lastTs: first!.ts + 500 }, ...rest];
    const report = await validateBundle(await makeBundle({ frames }), schemas, viewer);
    expect(report.problems).toEqual([]);
  });

  it('accepts frames that say the viewport they show beside frames that do not (written before they did)', async () => {
    const contents = bundleContents();
    const viewport = { width: 64, height: 36, device_pixel_ratio: 1, image_scale: 1, scroll: { x: 0, y: 12.5 } };
    const frames = contents.frames.map((f, i) => (i < 2 ? f : { ...f, viewport: { ...viewport, width: f.width } }));
    const report = await validateBundle(await makeBundle({ frames }), schemas, viewer);
    expect(report.problems).toEqual([]);
  });

  const frameEntry = (m: Record<string, unknown>, i: number) => (m.frames as Record<string, unknown>[])[i]!;
  it.each<[string, (m: Record<string, unknown>) => void, Problem]>([
    // No references between entries: each entry is its own file, so a hostile manifest cannot point
    // twice at one file, at a file out of order or at a file elsewhere in the zip.
    ['an entry that names the previous entry’s file', (m) => (frameEntry(m, 1).name = 'frames/frame_0001.jpeg'), { file: 'manifest.json', pointer: '/frames/1/name', message: 'is "frames/frame_0001.jpeg", frame 2 is frames/frame_0002.jpeg' }],
    ['an entry that names another file of the zip', (m) => (frameEntry(m, 1).name = 'steps.json'), { file: 'manifest.json', pointer: '/frames/1/name', message: 'is "steps.json", frame 2 is frames/frame_0002.jpeg' }],
    ['captures without last_ts', (m) => (frameEntry(m, 0).captures = 2), { file: 'manifest.json', pointer: '/frames/0', message: 'has one of captures and last_ts without the other' }],
    ['a last capture before the entry’s own', (m) => Object.assign(frameEntry(m, 0), { captures: 2, last_ts: (frameEntry(m, 0).ts as number) - 1 }), { file: 'manifest.json', pointer: '/frames/0/last_ts', message: 'is earlier than the entry’s ts' }],
    ['repeated captures reaching past the next frame', (m) => Object.assign(frameEntry(m, 0), { captures: 2, last_ts: (frameEntry(m, 1).ts as number) + 1 }), { file: 'manifest.json', pointer: '/frames/1/ts', message: 'is earlier than the frame before (frames are in time order)' }],
    ['a frame viewport without width', (m) => (frameEntry(m, 0).viewport = { height: 36, device_pixel_ratio: 1 }), { file: 'manifest.json', pointer: '/frames/0/viewport', message: "must have required property 'width'" }],
    ['a frame viewport of no size', (m) => (frameEntry(m, 0).viewport = { width: 0, height: 36, device_pixel_ratio: 1 }), { file: 'manifest.json', pointer: '/frames/0/viewport/width', message: 'must be > 0' }],
    ['a single capture counted as repeated', (m) => Object.assign(frameEntry(m, 0), { captures: 1, last_ts: frameEntry(m, 0).ts }), { file: 'manifest.json', pointer: '/frames/0/captures', message: 'must be >= 2' }],
  ])('refuses %s', async (_name, edit, first) => {
    const report = await validateBundle(await editBundle(await validZip, (f) => editJson(f, 'manifest.json', edit)), schemas, viewer);
    expect(report.valid).toBe(false);
    expect(report.problems).toContainEqual(first);
  });

  const notJpeg = (files: Files, name: string) => files.set(name, new Uint8Array(files.get(name)?.byteLength ?? 0));

  it.each<[string, (files: Files) => void, Problem]>([
    ['a manifest field of the wrong type', (f) => editJson(f, 'manifest.json', (m) => (m.tab_id = '7')), { file: 'manifest.json', pointer: '/tab_id', message: 'must be integer or must be null' }],
    ['a manifest without a required field', (f) => editJson(f, 'manifest.json', (m) => delete m.run_id), { file: 'manifest.json', pointer: '', message: "must have required property 'run_id'" }],
    ['an unknown field', (f) => editJson(f, 'steps.json', (s) => (s.extra = 1)), { file: 'steps.json', pointer: '', message: 'must NOT have additional properties ("extra")' }],
    ['a value outside an enum', (f) => editJson(f, 'diagnostics.json', (d) => ((d.failure as Record<string, unknown>).origin = 'alien')), { file: 'diagnostics.json', pointer: '/failure/origin', message: expect.stringMatching(/^must be equal to one of the allowed values \["page",/) as string }],
    ['a missing frame', (f) => f.delete('frames/frame_0002.jpeg'), { file: 'frames/frame_0002.jpeg', pointer: 'manifest.json#/artifacts/4', message: 'listed in the manifest’s artifacts but not in the zip' }],
    ['a frame that is not a JPEG', (f) => notJpeg(f, 'frames/frame_0003.jpeg'), { file: 'frames/frame_0003.jpeg', pointer: '', message: 'not a JPEG (does not start with the SOI marker FF D8)' }],
    ['a steps.json that is not JSON', (f) => f.set('steps.json', bytes('{ "steps": [')), { file: 'steps.json', pointer: '', message: expect.stringMatching(/^not valid JSON \(/) as string }],
    ['a snapshot.json nested too deep to check', (f) => f.set('snapshot.json', bytes(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)), { file: 'snapshot.json', pointer: '', message: 'nested more than 512 levels deep' }],
    ['a size mismatch', (f) => f.set('snapshot.json', bytes(`${new TextDecoder().decode(f.get('snapshot.json'))}\n`)), { file: 'snapshot.json', pointer: 'manifest.json#/artifacts/0/size_bytes', message: expect.stringMatching(/^is (\d+) bytes, the manifest says \d+$/) as string }],
    ['an unexpected file', (f) => f.set('notes.txt', bytes('hi')), { file: 'notes.txt', pointer: '', message: 'unexpected file (not part of the bundle format)' }],
    ['a missing manifest', (f) => f.delete('manifest.json'), { file: 'manifest.json', pointer: '', message: 'missing from the bundle' }],
    ['a frame_count that does not match', (f) => editJson(f, 'manifest.json', (m) => (m.frame_count = 5)), { file: 'manifest.json', pointer: '/frame_count', message: 'is 5, the zip holds 4 files under frames/' }],
    ['a frame the manifest does not list', (f) => f.set('frames/frame_0005.jpeg', f.get('frames/frame_0001.jpeg')!), { file: 'frames/frame_0005.jpeg', pointer: '', message: 'not listed in manifest.json artifacts' }],
    ['a frame of another size than stated', (f) => editJson(f, 'manifest.json', (m) => ((m.frames as Record<string, unknown>[])[0]!.width = 640)), { file: 'frames/frame_0001.jpeg', pointer: 'manifest.json#/frames/0', message: 'is 64x36, the manifest says 640x36' }],
    ['frames out of time order', (f) => editJson(f, 'manifest.json', (m) => ((m.frames as Record<string, unknown>[])[2]!.ts = 0)), { file: 'manifest.json', pointer: '/frames/2/ts', message: 'is earlier than the frame before (frames are in time order)' }],
    ['a failure.mp4 that is not an MP4', (f) => notJpeg(f, 'failure.mp4'), { file: 'failure.mp4', pointer: '', message: 'not an MP4 (does not start with an ftyp box)' }],
    ['a truncated failure.mp4', (f) => f.set('failure.mp4', f.get('failure.mp4')!.subarray(0, 64)), { file: 'failure.mp4', pointer: 'manifest.json#/artifacts/7/size_bytes', message: expect.stringMatching(/^is 64 bytes/) as string }],
    ['a clip the manifest describes but the zip lacks', (f) => f.delete('failure.mp4'), { file: 'failure.mp4', pointer: 'manifest.json#/artifacts/7', message: 'listed in the manifest’s artifacts but not in the zip' }],
    ['a clip the manifest describes, neither listed nor present', (f) => {
      f.delete('failure.mp4');
      editJson(f, 'manifest.json', (m) => (m.artifacts = (m.artifacts as { name: string }[]).filter((a) => a.name !== 'failure.mp4')));
    }, { file: 'failure.mp4', pointer: 'manifest.json#/clip', message: 'the manifest describes a clip, the zip has none' }],
    ['a clip the manifest says is none', (f) => editJson(f, 'manifest.json', (m) => (m.clip = null)), { file: 'failure.mp4', pointer: 'manifest.json#/clip', message: 'in the zip, but the manifest’s clip is null' }],
    ['another bundle’s steps', (f) => editJson(f, 'steps.json', (s) => (s.bundle_id = 'afr-20261122T120000Z-other1')), { file: 'steps.json', pointer: '/bundle_id', message: `is "afr-20261122T120000Z-other1", manifest.json says "${BUNDLE_ID}"` }],
    ['a step_count that does not match', (f) => editJson(f, 'manifest.json', (m) => (m.step_count = 3)), { file: 'manifest.json', pointer: '/step_count', message: 'is 3, steps.json holds 12 steps' }],
  ])('reports %s', async (_name, corrupt, first) => {
    const report = await validateBundle(await editBundle(await validZip, corrupt), schemas, viewer);
    expect(report.valid).toBe(false);
    expect(report.problems[0]).toEqual(first);
    expect(report.summary).toMatch(/^invalid: \d+ problems?/);
  });

  it('reports bytes that are not a zip', async () => {
    const report = await validateBundle(bytes('PK? not really'), schemas, viewer);
    expect(report).toMatchObject({ valid: false, bundle_id: null, summary: expect.stringMatching(/^invalid: not a zip archive \(/) as string });
    expect(report.problems).toEqual([{ file: ARCHIVE, pointer: '', message: expect.stringMatching(/^not a zip archive \(/) as string }]);
  });

  it('reports every problem of a broken bundle, not only the first', async () => {
    const zip = await editBundle(await validZip, (f) => {
      f.delete('frames/frame_0002.jpeg');
      f.set('notes.txt', bytes('hi'));
    });
    const files = (await validateBundle(zip, schemas, viewer)).problems.map((p) => `${p.file} ${p.pointer}`);
    expect(files).toEqual([
      'notes.txt ',
      'frames/frame_0002.jpeg manifest.json#/artifacts/4',
      'manifest.json /frame_count',
    ]);
  });
});

describe('validationLines', () => {
  const problem = (n: number): Problem => ({ file: `frames/frame_${n}.jpeg`, pointer: '', message: 'not a JPEG' });

  it('prints the summary and one line per problem, with the pointer when there is one', () => {
    const report: ValidationReport = {
      valid: false,
      bundle_id: 'afr-x',
      summary: 'invalid: 2 problems in afr-x',
      problems: [{ file: 'manifest.json', pointer: '/tab_id', message: 'must be integer' }, problem(1)],
    };
    expect(validationLines(report)).toEqual(['invalid: 2 problems in afr-x', '  manifest.json /tab_id: must be integer', '  frames/frame_1.jpeg: not a JPEG']);
  });

  it('caps the list and says how many are left out', () => {
    const problems = Array.from({ length: 25 }, (_, i) => problem(i));
    const lines = validationLines({ valid: false, bundle_id: null, summary: 'invalid: 25 problems', problems });
    expect(lines).toHaveLength(22);
    expect(lines.at(-1)).toBe('  … and 5 more (--json lists them all)');
  });
});

describe('loadBundleJsonSchemas', () => {
  it('reads the published schema of each bundle file from schemas/json/', () => {
    const onDisk = loadBundleJsonSchemas();
    expect(Object.keys(onDisk).sort()).toEqual(['agent.json', 'diagnostics.json', 'manifest.json', 'network.har', 'snapshot.json', 'snapshots/page-NNN.json', 'steps.json']);
    expect(onDisk['manifest.json']).toMatchObject({ $id: 'manifest.schema.json', $schema: 'https://json-schema.org/draft/2020-12/schema' });
    expect(bundleSchemaFileNames()).toEqual({
      'manifest.json': 'manifest.schema.json',
      'diagnostics.json': 'diagnostics.schema.json',
      'snapshot.json': 'snapshot.schema.json',
      'steps.json': 'steps.schema.json',
      'network.har': 'network-har.schema.json',
      'agent.json': 'agent.schema.json',
      'snapshots/page-NNN.json': 'step-snapshot.schema.json',
    });
  });
});
