// @vitest-environment happy-dom
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { InvalidBundleError } from '../bundle-format/parse-files';
import { loadBundleZip, type ObjectUrls } from './load-zip';
import { makeBundleContents, makeBundleData, makeBundleZip } from '../../test/fakes/viewer-bundle';
import { makeStepPages, makeTimelineBundleData } from '../../test/fakes/viewer-step-pages';

function fakeUrls() {
  const live = new Map<string, Blob>();
  let n = 0;
  const urls: ObjectUrls = {
    create: (blob) => {
      const url = `blob:test/${++n}`;
      live.set(url, blob);
      return url;
    },
    revoke: (url) => void live.delete(url),
  };
  return { urls, live };
}

async function zipOf(files: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(files)) zip.file(name, text);
  return zip.generateAsync({ type: 'uint8array' });
}

describe('loadBundleZip', () => {
  it('reads a bundle written by the recorder: its JSON files, and object URLs for frames and clip', async () => {
    const zip = await makeBundleZip();
    const { urls, live } = fakeUrls();
    const bundle = await loadBundleZip(zip, urls);
    const expected = makeBundleData();
    expect(bundle.data.steps).toEqual(expected.steps);
    expect(bundle.data.snapshot).toEqual(expected.snapshot);
    expect(bundle.data.manifest.frames).toEqual(expected.manifest.frames);
    const first = bundle.media.frameUrl('frames/frame_0001.jpeg')!;
    expect(live.get(first)!.type).toBe('image/jpeg');
    expect([...new Uint8Array(await live.get(first)!.arrayBuffer())]).toEqual([0xff, 0xd8, 0]);
    expect(live.get(bundle.media.clipUrl!)!.type).toBe('video/mp4');
    expect(bundle.media.frameUrl('frames/nope.jpeg')).toBeNull();
    expect(live.size).toBe(5);
    bundle.release();
    expect(live.size).toBe(0);
  });

  it('reads the step pages of a bundle the recorder wrote', async () => {
    const pages = makeStepPages();
    const zip = await makeBundleZip({ ...makeBundleContents(makeTimelineBundleData()), stepSnapshots: [...pages].map(([name, file]) => ({ name, file })) });
    const bundle = await loadBundleZip(zip, fakeUrls().urls);
    const click = bundle.data.steps.steps.find((s) => s.snapshot === 'snapshots/page-003.json')!;
    expect(bundle.media.stepPage!(click.snapshot!)).toEqual({ ok: true, file: pages.get('snapshots/page-003.json') });
  });

  it('reads a step page only when asked, checked against its schema; a broken one is explained', async () => {
    const data = makeTimelineBundleData();
    const pages = makeStepPages();
    const files: Record<string, string> = { 'manifest.json': JSON.stringify(data.manifest), 'steps.json': JSON.stringify(data.steps) };
    for (const [path, file] of pages) files[path] = JSON.stringify(file);
    files['snapshots/page-004.json'] = JSON.stringify({ ...pages.get('snapshots/page-004.json'), version: 7 });
    const bundle = await loadBundleZip(await zipOf(files), fakeUrls().urls);
    expect(bundle.media.stepPage!('snapshots/page-003.json')).toEqual({ ok: true, file: pages.get('snapshots/page-003.json') });
    const broken = bundle.media.stepPage!('snapshots/page-004.json');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.error).toMatch(/^snapshots\/page-004\.json: version: /);
    expect(bundle.media.stepPage!('snapshots/page-009.json')).toEqual({ ok: false, error: 'snapshots/page-009.json: missing from the bundle' });
  });

  it('accepts a bundle without diagnostics.json and snapshot.json (metadata capture level)', async () => {
    const data = makeBundleData();
    data.manifest.frames = [];
    data.manifest.clip = null;
    const bundle = await loadBundleZip(await zipOf({ 'manifest.json': JSON.stringify(data.manifest), 'steps.json': JSON.stringify(data.steps) }), fakeUrls().urls);
    expect(bundle.data.diagnostics).toBeNull();
    expect(bundle.data.snapshot).toBeNull();
  });

  it.each([
    ['not a zip', async () => new TextEncoder().encode('hello'), /^Not a zip file: Can't find end of central directory/],
    [
      'a zip past the readers’ bounds',
      async () => zipOf({ 'manifest.json': '{}', 'a/b/c/d/e/steps.json': '{}' }),
      /^Not a valid Agent Flight Recorder bundle:\n- a\/b\/c\/d\/e\/[^:]*: nested \d+ levels deep, more than the 4 a bundle may have$/,
    ],
    ['no manifest', async () => zipOf({ 'steps.json': JSON.stringify(makeBundleData().steps) }), /manifest\.json is missing/],
    ['broken JSON', async () => zipOf({ 'manifest.json': '{', 'steps.json': JSON.stringify(makeBundleData().steps) }), /manifest\.json is not valid JSON/],
    [
      'a field of the wrong type',
      async () => zipOf({ 'manifest.json': JSON.stringify({ ...makeBundleData().manifest, tab_id: 'seven' }), 'steps.json': JSON.stringify(makeBundleData().steps) }),
      /manifest\.json does not match its schema: tab_id: /,
    ],
    [
      'an invalid step and an invalid snapshot',
      async () =>
        zipOf({
          'manifest.json': JSON.stringify(makeBundleData().manifest),
          'steps.json': JSON.stringify({ ...makeBundleData().steps, steps: [{ ts: 'now' }] }),
          'snapshot.json': '{"version": 99}',
        }),
      /steps\.json does not match its schema: steps\.0\.ts: [^]*\n- snapshot\.json does not match/,
    ],
  ])('rejects %s with a message that says what is wrong', async (_what, make, message) => {
    const error = await loadBundleZip(await make(), fakeUrls().urls).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidBundleError);
    expect((error as Error).message).toMatch(message);
  });
});
