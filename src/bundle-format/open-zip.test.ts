import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ZIP_LIMITS, NotAZipError, ZipLimitError, openBundleZip, openLazyBundleZip, readBundleFiles, type ZipLimits } from './open-zip';

const zipOf = async (files: Record<string, string | Uint8Array>, compression: 'STORE' | 'DEFLATE' = 'DEFLATE') => {
  const zip = new JSZip();
  for (const [name, data] of Object.entries(files)) zip.file(name, data);
  return zip.generateAsync({ type: 'uint8array', compression });
};

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Offsets of the central directory headers (signature PK\1\2), in archive order. */
function centralHeaders(zip: Uint8Array): number[] {
  const at: number[] = [];
  for (let i = 0; i + 4 <= zip.byteLength; i++) if (view(zip).getUint32(i, true) === 0x02014b50) at.push(i);
  return at;
}

/** Rewrites the uncompressed size the central directory declares for entry `index`. */
function declareSize(zip: Uint8Array, index: number, size: number): Uint8Array {
  const out = zip.slice();
  view(out).setUint32(centralHeaders(out)[index]! + 24, size, true);
  return out;
}

/** Rewrites the entry count of the end-of-central-directory record. */
function declareEntryCount(zip: Uint8Array, count: number): Uint8Array {
  const out = zip.slice();
  const eocd = out.byteLength - 22;
  view(out).setUint16(eocd + 8, count, true);
  view(out).setUint16(eocd + 10, count, true);
  return out;
}

const limits = (over: Partial<ZipLimits>): ZipLimits => ({ ...DEFAULT_ZIP_LIMITS, ...over });
const refusal = (promise: Promise<unknown>) => promise.then(() => new Error('opened'), (e: unknown) => e);

describe('openBundleZip', () => {
  it('unpacks files in archive order and leaves folders out', async () => {
    const zip = new JSZip();
    zip.file('manifest.json', '{"version":1}');
    zip.file('frames/frame_0001.jpeg', new Uint8Array([0xff, 0xd8]));
    zip.folder('empty');
    const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    const archive = await openBundleZip(bytes);
    expect([...archive.files.keys()]).toEqual(['manifest.json', 'frames/frame_0001.jpeg']);
    expect(new TextDecoder().decode(archive.files.get('manifest.json'))).toBe('{"version":1}');
    expect([...archive.files.get('frames/frame_0001.jpeg')!]).toEqual([0xff, 0xd8]);
    expect(archive.zipBytes).toBe(bytes.byteLength);
  });

  it('takes an ArrayBuffer or a Blob as well', async () => {
    const bytes = await zipOf({ 'a.json': '{}' });
    expect((await openBundleZip(bytes.slice().buffer)).files.size).toBe(1);
    expect((await openBundleZip(new Blob([bytes.slice()]))).zipBytes).toBe(bytes.byteLength);
  });

  it.each([
    ['text', new TextEncoder().encode('hello')],
    ['nothing', new Uint8Array()],
    ['a truncated zip', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0])],
  ])('refuses %s as not a zip, without JSZip’s FAQ link in the message', async (_name, bytes) => {
    const error = await refusal(openBundleZip(bytes));
    expect(error).toBeInstanceOf(NotAZipError);
    expect((error as Error).message).toMatch(/^not a zip archive \(.+\)$/);
    expect((error as Error).message).not.toContain('https://');
    expect((error as NotAZipError).reason.length).toBeGreaterThan(0);
  });

  describe('hostile zips', () => {
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}.json`, '{}']));

    it('refuses too many entries from the declared count, before JSZip reads them', async () => {
      const error = await refusal(openBundleZip(await zipOf(eleven), limits({ maxEntries: 10 })));
      expect(error).toBeInstanceOf(ZipLimitError);
      expect((error as Error).message).toBe('11 entries, more than the 10 a bundle may have');
    });

    it('counts the entries read when the declared count lies', async () => {
      const lying = declareEntryCount(await zipOf(eleven), 1);
      const error = await refusal(openBundleZip(lying, limits({ maxEntries: 10 })));
      expect((error as Error).message).toBe('11 entries, more than the 10 a bundle may have');
    });

    it('refuses a file whose declared size is past the bound, before inflating it', async () => {
      const error = await refusal(openBundleZip(await zipOf({ 'steps.json': 'x'.repeat(2_000) }), limits({ maxEntryBytes: 1_000 })));
      expect(error).toBeInstanceOf(ZipLimitError);
      expect((error as Error).message).toBe('steps.json: declares 2000 bytes uncompressed, more than the 1000 a bundle file may have');
    });

    it('refuses a small zip that honestly declares a huge file (more than the compression ratio a bundle has)', async () => {
      const zip = await zipOf({ 'a.bin': new Uint8Array(4 * 1024 * 1024) });
      expect(zip.byteLength).toBeLessThan(20_000);
      const error = await refusal(openBundleZip(zip));
      expect(error).toBeInstanceOf(ZipLimitError);
      expect((error as Error).message).toMatch(/^a\.bin: declares 4194304 bytes from \d+ compressed, more than 200 to 1 \(a zip bomb\)$/);
    });

    it('holds small files to no ratio, and stored files of any size pass', async () => {
      const zip = await zipOf({ 'tiny.json': ' '.repeat(500_000) });
      expect((await openBundleZip(zip)).files.get('tiny.json')!.byteLength).toBe(500_000);
      const stored = await zipOf({ 'frame.jpeg': new Uint8Array(2 * 1024 * 1024) }, 'STORE');
      expect((await openBundleZip(stored)).files.get('frame.jpeg')!.byteLength).toBe(2 * 1024 * 1024);
    });

    it('refuses a declared size JSZip reads as negative (2 GiB or more)', async () => {
      const error = await refusal(openBundleZip(declareSize(await zipOf({ 'a.json': '{}' }), 0, 0x80000010)));
      expect(error).toBeInstanceOf(ZipLimitError);
      expect((error as Error).message).toMatch(/^a\.json: declares 2 GiB or more uncompressed/);
    });

    it('refuses files that together declare more than the total bound', async () => {
      const zip = await zipOf({ 'a.json': 'x'.repeat(600), 'b.json': 'y'.repeat(600) });
      const error = await refusal(openBundleZip(zip, limits({ maxTotalBytes: 1_000 })));
      expect((error as Error).message).toMatch(/^declares more than 1000 bytes uncompressed in all/);
    });

    it('stops inflating a file that inflates past the size its header declares (a zip bomb that lies)', async () => {
      // 8 MiB of zeros deflate to a few KiB; the header is made to claim 100 bytes.
      const bomb = declareSize(await zipOf({ 'manifest.json': new Uint8Array(8 * 1024 * 1024) }), 0, 100);
      expect(bomb.byteLength).toBeLessThan(64 * 1024);
      const error = await refusal(openBundleZip(bomb));
      expect(error).toBeInstanceOf(ZipLimitError);
      expect((error as Error).message).toBe('manifest.json: inflates past the 100 bytes its header declares');
    });

    it('stops at the total bound while inflating, whatever each header says', async () => {
      const zip = declareSize(declareSize(await zipOf({ 'a.bin': new Uint8Array(4_000), 'b.bin': new Uint8Array(4_000) }), 0, 500), 1, 500);
      const error = await refusal(openBundleZip(zip, limits({ maxTotalBytes: 1_000 })));
      expect((error as Error).message).toBe('a.bin: inflates past the 500 bytes its header declares');
    });

    it('refuses a file that inflates to less than its header declares', async () => {
      const zip = declareSize(await zipOf({ 'a.json': 'x'.repeat(100) }), 0, 500);
      const error = await refusal(openBundleZip(zip));
      expect(error).toBeInstanceOf(NotAZipError);
      expect((error as Error).message).toMatch(/^not a zip archive \(a\.json: .+\)$/);
    });

    it.each([
      ['a file', 'a/b/c/d/e/manifest.json'],
      ['a folder', 'a/b/c/d/e/'],
      ['a path of empty parts and dots', 'x/../../../../etc/passwd'],
    ])('refuses %s nested deeper than the bound', async (_what, name) => {
      const zip = new JSZip();
      if (name.endsWith('/')) zip.folder(name);
      else zip.file(name, '{}');
      const error = await refusal(openBundleZip(await zip.generateAsync({ type: 'uint8array' })));
      expect(error).toBeInstanceOf(ZipLimitError);
      expect((error as Error).message).toMatch(/: nested \d+ levels deep, more than the 4 a bundle may have$/);
    });
  });

  describe('lazily', () => {
    it('inflates only the files asked for: a lying frame fails when it is read, not when the manifest is', async () => {
      const zip = declareSize(await zipOf({ 'manifest.json': '{"version":1}', 'frames/frame_0001.jpeg': new Uint8Array(8 * 1024) }), 2, 100); // JSZip adds the folder frames/ as entry 1
      const archive = await openLazyBundleZip(zip);
      expect(archive.names).toEqual(['manifest.json', 'frames/frame_0001.jpeg']);
      expect(archive.declaredBytes('frames/frame_0001.jpeg')).toBe(100);
      const { files } = await readBundleFiles(archive, ['manifest.json', 'steps.json']);
      expect([...files.keys()]).toEqual(['manifest.json']);
      expect(new TextDecoder().decode(files.get('manifest.json'))).toBe('{"version":1}');
      const error = await refusal(archive.read('frames/frame_0001.jpeg'));
      expect((error as Error).message).toBe('frames/frame_0001.jpeg: inflates past the 100 bytes its header declares');
      await expect(openBundleZip(zip)).rejects.toThrow(ZipLimitError);
    });

    it('checks every declared size before anything is read', async () => {
      const error = await refusal(openLazyBundleZip(await zipOf({ 'a.bin': new Uint8Array(4 * 1024 * 1024) })));
      expect((error as Error).message).toMatch(/a zip bomb/);
    });

    it('scans a file chunk by chunk without keeping it, and says when a name is absent', async () => {
      const archive = await openLazyBundleZip(await zipOf({ 'clip.mp4': new Uint8Array(300_000).fill(7) }, 'STORE'));
      let seen = 0;
      expect(await archive.scan('clip.mp4', (chunk) => (seen += chunk.byteLength))).toBe(true);
      expect(seen).toBe(300_000);
      expect(await archive.scan('other.mp4', () => undefined)).toBe(false);
      expect(await archive.read('other.mp4')).toBeUndefined();
    });
  });
});
