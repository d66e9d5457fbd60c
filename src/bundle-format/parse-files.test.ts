import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MANIFEST_VERSION } from '../../schemas/manifest';
import { makeBundleData, makeBundleZip, manifestV1 } from '../../test/fakes/viewer-bundle';
import { openBundleZip, type BundleArchive } from './open-zip';
import { InvalidBundleError, parseBundleData, parseJsonFile, readJsonFile } from './parse-files';

const archiveOf = (files: Record<string, string | Uint8Array>): BundleArchive => ({
  files: new Map(Object.entries(files).map(([name, data]) => [name, typeof data === 'string' ? new TextEncoder().encode(data) : data.slice()])),
  zipBytes: 0,
});

describe('readJsonFile', () => {
  it.each([
    ['a JSON file', { 'a.json': '{"version":1}' }, { ok: true, value: { version: 1 } }],
    ['a missing file', {}, { ok: false, problem: 'missing', error: 'missing from the bundle' }],
    ['broken JSON', { 'a.json': '{' }, { ok: false, problem: 'not-json', error: expect.stringMatching(/^not valid JSON \(.+\)$/) as string }],
    ['bytes that are not UTF-8', { 'a.json': new Uint8Array([0x7b, 0xff, 0x7d]) }, { ok: false, problem: 'not-json', error: expect.stringMatching(/^not valid JSON \(/) as string }],
    ['JSON nested 100 000 deep', { 'a.json': `${'['.repeat(100_000)}${']'.repeat(100_000)}` }, { ok: false, problem: 'too-deep', error: 'nested more than 512 levels deep' }],
  ])('%s', (_what, files, expected) => {
    expect(readJsonFile(archiveOf(files), 'a.json')).toEqual(expected);
  });

  it('checks a file against the schema it is given', () => {
    const archive = archiveOf({ 'a.json': '{"version":"one"}' });
    expect(parseJsonFile(archive, 'a.json', z.object({ version: z.number() }))).toMatchObject({ ok: false, problem: 'schema', error: expect.stringMatching(/^version: /) as string });
    expect(parseJsonFile(archive, 'a.json', z.object({ version: z.string() }))).toEqual({ ok: true, value: { version: 'one' } });
  });
});

describe('parseBundleData', () => {
  const data = makeBundleData();
  const json = (value: unknown) => JSON.stringify(value);

  it('reads a bundle written by the recorder', async () => {
    const parsed = parseBundleData(await openBundleZip(await makeBundleZip()));
    expect(parsed.steps).toEqual(data.steps);
    expect(parsed.snapshot).toEqual(data.snapshot);
    expect(parsed.diagnostics).toEqual(data.diagnostics);
    expect(parsed.manifest.frames).toEqual(data.manifest.frames);
  });

  it('reads a version 1 manifest as the current version, its redaction rules counted', () => {
    const parsed = parseBundleData(archiveOf({ 'manifest.json': json(manifestV1(data.manifest)), 'steps.json': json(data.steps) }));
    expect(parsed.manifest.version).toBe(MANIFEST_VERSION);
    expect(parsed.manifest.settings.redaction).toEqual({ selectors: 2, fieldNamePatterns: 1, textPatterns: 1 });
    expect(parsed.manifest.frames).toEqual(data.manifest.frames);
  });

  it('takes a bundle without diagnostics.json and snapshot.json (metadata capture level)', () => {
    const parsed = parseBundleData(archiveOf({ 'manifest.json': json(data.manifest), 'steps.json': json(data.steps) }));
    expect(parsed.diagnostics).toBeNull();
    expect(parsed.snapshot).toBeNull();
  });

  it.each([
    ['no manifest', { 'steps.json': json(data.steps) }, /^Not a valid Agent Flight Recorder bundle:\n- manifest\.json is missing$/],
    ['broken JSON', { 'manifest.json': '{', 'steps.json': json(data.steps) }, /manifest\.json is not valid JSON \(/],
    ['a field of the wrong type', { 'manifest.json': json({ ...data.manifest, tab_id: 'seven' }), 'steps.json': json(data.steps) }, /manifest\.json does not match its schema: tab_id: /],
    ['a snapshot nested too deep', { 'manifest.json': json(data.manifest), 'steps.json': json(data.steps), 'snapshot.json': `{"a":${'['.repeat(600)}${']'.repeat(600)}}` }, /- snapshot\.json is nested more than 512 levels deep$/],
    [
      'an invalid step and an invalid snapshot',
      { 'manifest.json': json(data.manifest), 'steps.json': json({ ...data.steps, steps: [{ ts: 'now' }] }), 'snapshot.json': '{"version": 99}' },
      /steps\.json does not match its schema: steps\.0\.ts: [^]*\n- snapshot\.json does not match/,
    ],
  ])('refuses %s, saying what is wrong', (_what, files, message) => {
    expect(() => parseBundleData(archiveOf(files))).toThrow(InvalidBundleError);
    expect(() => parseBundleData(archiveOf(files))).toThrow(message);
  });

  it('reads a zip whose JSON files are stored uncompressed too', async () => {
    const zip = new JSZip();
    zip.file('manifest.json', json(data.manifest));
    zip.file('steps.json', json(data.steps));
    const parsed = parseBundleData(await openBundleZip(await zip.generateAsync({ type: 'uint8array', compression: 'STORE' })));
    expect(parsed.manifest.bundle_id).toBe(data.manifest.bundle_id);
  });
});
