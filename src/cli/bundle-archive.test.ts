import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { NotAZipError, formatBytes, openBundleArchive, readJsonFile } from './bundle-archive';

describe('openBundleArchive', () => {
  it('unpacks files in archive order and leaves folders out', async () => {
    const zip = new JSZip();
    zip.file('manifest.json', '{"version":1}');
    zip.file('frames/frame_0001.jpeg', new Uint8Array([0xff, 0xd8]));
    zip.file('bad.json', new Uint8Array([0x7b, 0xff, 0x7d]));
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    const archive = await openBundleArchive(bytes);
    expect([...archive.files.keys()]).toEqual(['manifest.json', 'frames/frame_0001.jpeg', 'bad.json']);
    expect(archive.zipBytes).toBe(bytes.byteLength);
    expect(readJsonFile(archive, 'manifest.json')).toEqual({ ok: true, value: { version: 1 } });
    expect(readJsonFile(archive, 'steps.json')).toEqual({ ok: false, error: 'missing from the bundle' });
    expect(readJsonFile(archive, 'bad.json')).toMatchObject({ ok: false, error: expect.stringMatching(/^not valid JSON \(/) as string });
  });

  it.each([
    ['text', new TextEncoder().encode('hello')],
    ['nothing', new Uint8Array()],
    ['a truncated zip', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0])],
  ])('rejects %s as not a zip, without JSZip’s FAQ link', async (_name, bytes) => {
    const error = await openBundleArchive(bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAZipError);
    expect((error as Error).message).toMatch(/^not a zip archive \(.+\)$/);
    expect((error as Error).message).not.toContain('https://');
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1536, '1.5 KiB'],
    [412_058, '402.4 KiB'],
    [5 * 1024 * 1024, '5.0 MiB'],
  ])('%i → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
