import { describe, expect, it } from 'vitest';
import { bundleViewerScript } from './viewer-script-build';

// `afr validate` makes the viewer script again to know what this version writes: that only works if
// making it twice gives the same bytes, wherever it is started from.
describe('bundleViewerScript', () => {
  it('makes the same script every time, with no path of this machine in it', async () => {
    const cwd = process.cwd();
    const first = await bundleViewerScript();
    process.chdir('/');
    try {
      const second = await bundleViewerScript();
      expect(second.code).toBe(first.code);
    } finally {
      process.chdir(cwd);
    }
    expect(first.code).not.toContain(cwd);
    expect(first.code).not.toMatch(/\/(home|tmp|work|Users)\//);
    expect(first.inputs).toEqual(expect.arrayContaining([expect.stringMatching(/src\/viewer\/standalone\.ts$/) as string]));
  }, 60_000);
});
