import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stageFile } from './staged-file';

describe('stageFile', () => {
  let dir = '';
  beforeEach(async () => void (dir = await mkdtemp(path.join(tmpdir(), 'afr-stage-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps the file under its name only when asked, and never over an existing one unless replacing', async () => {
    const target = path.join(dir, 'f.har');
    await writeFile(target, 'old');
    const staged = await stageFile(dir);
    await staged.write(new TextEncoder().encode('new'));
    await expect(staged.keepAs(target)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readFile(target, 'utf8')).toBe('old');
    await staged.keepAs(target, true);
    await staged.discard();
    expect(await readFile(target, 'utf8')).toBe('new');
    expect(await readdir(dir)).toEqual(['f.har']);
  });
});
