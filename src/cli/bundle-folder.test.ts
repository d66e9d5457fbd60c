import { execFileSync } from 'node:child_process';
import type * as FsPromises from 'node:fs/promises';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BundleReadError } from '../reads/errors';
import { folderSource } from './bundle-folder';

// The real file system, with `open` and `stat` watched: a test can see that a file was not opened, or make a step hang.
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  return { ...real, open: vi.fn(real.open), stat: vi.fn(real.stat) };
});
const fs = await import('node:fs/promises');

let tmp: string;
let dir: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'afr-folder-'));
  dir = path.join(tmp, 'bundles');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'a.zip'), 'zip a');
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const refusal = async (read: Promise<unknown>) => {
  const error = await read.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(BundleReadError);
  return (error as Error).message;
};

describe('folderSource', () => {
  it('reads a zip directly in the folder by its name, with or without .zip', async () => {
    const source = folderSource(dir);
    expect(new TextDecoder().decode(await source.read('a'))).toBe('zip a');
    expect(new TextDecoder().decode(await source.read('a.zip'))).toBe('zip a');
    expect(new TextDecoder().decode(await source.read(path.join(dir, 'a.zip')))).toBe('zip a');
  });

  it('neither lists nor reads a zip in a subfolder', async () => {
    mkdirSync(path.join(dir, 'sub'));
    writeFileSync(path.join(dir, 'sub', 'b.zip'), 'zip b');
    const source = folderSource(dir);
    expect((await source.list()).bundles.map((b) => b.id)).toEqual(['a']);
    expect(await refusal(source.read('sub/b.zip'))).toMatch(/in a subfolder of .*: only the zips directly in it are read/);
    expect(await refusal(source.read(path.join(dir, 'sub', 'b.zip')))).toMatch(/in a subfolder/);
  });

  it('refuses a link out of the folder, and one into a subfolder', async () => {
    writeFileSync(path.join(tmp, 'secret.zip'), 'elsewhere');
    symlinkSync(path.join(tmp, 'secret.zip'), path.join(dir, 'out.zip'));
    mkdirSync(path.join(dir, 'sub'));
    writeFileSync(path.join(dir, 'sub', 'b.zip'), 'zip b');
    symlinkSync(path.join(dir, 'sub', 'b.zip'), path.join(dir, 'down.zip'));
    const source = folderSource(dir);
    expect(await refusal(source.read('out'))).toMatch(/outside the bundles folder .* \(a link out of it\)/);
    expect(await refusal(source.read('down'))).toMatch(/outside the bundles folder .* \(a link out of it\)/);
    expect(await refusal(source.read('../secret.zip'))).toMatch(/outside the bundles folder/);
  });

  it('does not hang on a FIFO named x.zip: refused before it is opened', async () => {
    execFileSync('mkfifo', [path.join(dir, 'x.zip')]);
    const source = folderSource(dir);
    expect((await source.list()).bundles.map((b) => b.id)).toEqual(['a']);
    const started = Date.now();
    expect(await refusal(source.read('x'))).toMatch(/not a regular file \(a FIFO, device or folder is never read\)/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses an oversized file before reading any of it', async () => {
    writeFileSync(path.join(dir, 'big.zip'), new Uint8Array(4096));
    const source = folderSource(dir, { maxBytes: 1024, timeoutMs: 5_000 });
    vi.mocked(fs.open).mockClear();
    expect(await refusal(source.read('big'))).toMatch(/^4\.0 KiB, more than the 1\.0 KiB a bundle is read up to; not read$/);
    expect(fs.open).not.toHaveBeenCalled();
    expect(new TextDecoder().decode(await source.read('a'))).toBe('zip a');
  });

  it('gives up on a read that does not end within its time', async () => {
    vi.mocked(fs.stat).mockImplementationOnce(() => new Promise(() => undefined));
    const message = await refusal(folderSource(dir, { maxBytes: 1024, timeoutMs: 50 }).read('a'));
    expect(message).toBe('reading the zip timed out after 50 ms; not read');
  });
});
