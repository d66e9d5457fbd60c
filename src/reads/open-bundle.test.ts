import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { editBundle, editJson, makeBundle } from '../../test/fixtures/cli/make-bundle';
import { BundleReadError } from './errors';
import { openBundle } from './open-bundle';

async function refusal(promise: Promise<unknown>): Promise<BundleReadError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(BundleReadError);
  return error as BundleReadError;
}

describe('openBundle', () => {
  it.each<[string, () => Promise<Uint8Array>, RegExp]>([
    ['bytes that are not a zip', async () => new TextEncoder().encode('hello'), /^not a zip archive \(/],
    ['a zip without a manifest', async () => new JSZip().file('notes.txt', 'hi').generateAsync({ type: 'uint8array' }), /^not an Agent Flight Recorder bundle \(no manifest\.json in the zip\)$/],
    ['a manifest that is not JSON', async () => editBundle(await makeBundle(), (files) => files.set('manifest.json', new TextEncoder().encode('{oops'))), /^manifest\.json is not valid JSON/],
    ['a manifest of another shape', async () => editBundle(await makeBundle(), (files) => editJson(files, 'manifest.json', (m) => void delete m.frames)), /^manifest\.json is not shaped like a bundle file: frames/],
  ])('refuses %s with one line', async (_name, zip, message) => {
    const error = await refusal(openBundle(await zip()));
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('\n');
    expect(error.kind).toBe('input');
  });
});
