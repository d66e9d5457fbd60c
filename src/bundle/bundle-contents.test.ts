import { describe, expect, it } from 'vitest';
import type { Diagnostics } from '../../schemas/diagnostics';
import type { PageSnapshot } from '../../schemas/snapshot';
import { makeBundleContents } from '../../test/fakes/viewer-bundle';
import { bundleContents, type ContentsInput } from './bundle-contents';
import type { StepPages } from './step-pages';

const base = makeBundleContents();
const snapshot = base.snapshot!.snapshot as PageSnapshot;
const mp4 = new Uint8Array([0, 0, 0, 24]);

const input = (over: Partial<ContentsInput> = {}): ContentsInput => ({
  bundleId: 'b',
  manifest: base.manifest,
  withSnapshot: true,
  snapshot: { ok: true, snapshot },
  diagnostics: base.diagnostics as Diagnostics,
  steps: base.steps.steps,
  pages: null,
  frames: base.frames,
  clip: { ok: true, mp4, durationSeconds: 1, encoder: 'fake' },
  ...over,
});

describe('bundleContents', () => {
  it.each([
    { name: 'trace and up: snapshot, diagnostics, outline', withSnapshot: true, want: { snapshot: true, diagnostics: true, outline: true } },
    { name: 'below trace: none of them', withSnapshot: false, want: { snapshot: false, diagnostics: false, outline: false } },
  ])('$name', ({ withSnapshot, want }) => {
    const contents = bundleContents(input({ withSnapshot }));
    expect({ snapshot: contents.snapshot !== null, diagnostics: contents.diagnostics !== null, outline: contents.outline !== undefined }).toEqual(want);
    expect(contents.steps).toEqual({ version: base.steps.version, bundle_id: 'b', steps: base.steps.steps });
    expect(contents.frames).toBe(base.frames);
  });

  it.each([
    { name: 'taken', snapshot: { ok: true as const, snapshot }, want: { snapshot, error: null } },
    { name: 'failed', snapshot: { ok: false as const, error: 'no answer' }, want: { snapshot: null, error: 'no answer' } },
  ])('snapshot.json holds the page or why there is none: $name', ({ snapshot: result, want }) => {
    expect(bundleContents(input({ snapshot: result })).snapshot).toEqual({ version: base.snapshot!.version, bundle_id: 'b', ...want });
  });

  it('names the page before the failure’s document and writes the pages at the steps', () => {
    const pages: StepPages = { files: [], steps: [], previous: 'snapshots/0001.json', leftOut: 0 };
    const contents = bundleContents(input({ pages }));
    expect(contents.snapshot).toMatchObject({ previous: 'snapshots/0001.json' });
    expect(contents.stepSnapshots).toBe(pages.files);
    expect(bundleContents(input()).snapshot).not.toHaveProperty('previous');
  });

  it.each([
    { name: 'made', clip: { ok: true as const, mp4, durationSeconds: 1, encoder: 'fake' }, want: mp4 },
    { name: 'failed', clip: { ok: false as const, error: 'x' }, want: null },
    { name: 'none asked', clip: null, want: null },
  ])('holds the clip only when one was made: $name', ({ clip, want }) => {
    expect(bundleContents(input({ clip })).clip).toBe(want);
  });

  it('passes the viewer script on (viewer.html)', () => {
    expect(bundleContents(input({ viewerScript: 'x()' })).viewerScript).toBe('x()');
    expect(bundleContents(input()).viewerScript).toBeUndefined();
  });
});
