// @vitest-environment happy-dom
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { ManifestSchema } from '../../schemas/manifest';
import type { BundleData } from '../bundle-format/bundle-data';
import { EMBEDDED_DATA_ID } from '../bundle-format/viewer-html';
import { makeBundleContents } from '../../test/fakes/viewer-bundle';
import { writeBundle } from './write-bundle';

async function filesOf(zip: Uint8Array) {
  const archive = await JSZip.loadAsync(zip);
  return { archive, text: (name: string) => archive.file(name)!.async('string') };
}

describe('writeBundle viewer.html', () => {
  it('adds viewer.html with the bundle data embedded, listed in the artifacts with its exact size', async () => {
    const { zip, manifest } = await writeBundle({ ...makeBundleContents(), viewerScript: 'document.title = "viewer";' });
    const { archive, text } = await filesOf(zip);
    const html = await text('viewer.html');
    const stored = ManifestSchema.parse(JSON.parse(await text('manifest.json')));
    expect(stored).toEqual(manifest);
    expect(manifest.artifacts.find((a) => a.name === 'viewer.html')?.size_bytes).toBe(new TextEncoder().encode(html).byteLength);
    for (const artifact of manifest.artifacts) expect((await archive.file(artifact.name)!.async('uint8array')).byteLength).toBe(artifact.size_bytes);

    const doc = new DOMParser().parseFromString(html, 'text/html');
    const embedded = JSON.parse(doc.getElementById(EMBEDDED_DATA_ID)!.textContent!) as BundleData;
    expect(embedded.manifest).toEqual(manifest);
    expect(embedded.steps).toEqual(JSON.parse(await text('steps.json')));
    expect(embedded.snapshot).toEqual(JSON.parse(await text('snapshot.json')));
    expect(embedded.diagnostics).toEqual(JSON.parse(await text('diagnostics.json')));
    expect(doc.querySelectorAll('script')[1]!.textContent).toBe('document.title = "viewer";');
  });

  it('writes no viewer.html without a viewer script', async () => {
    const { zip, manifest } = await writeBundle(makeBundleContents());
    expect((await filesOf(zip)).archive.file('viewer.html')).toBeNull();
    expect(manifest.artifacts.map((a) => a.name)).not.toContain('viewer.html');
  });
});
