import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recorderLaunchArgs, SILENT_DEBUGGER_SWITCH } from './launch-args';

describe('recorderLaunchArgs', () => {
  it('loads the extension only, by its absolute path, and keeps the debugger infobar out of the window', () => {
    const dir = path.resolve('ext/chrome-mv3');
    expect(recorderLaunchArgs('ext/chrome-mv3')).toEqual([`--disable-extensions-except=${dir}`, `--load-extension=${dir}`, '--silent-debugger-extension-api']);
    expect(SILENT_DEBUGGER_SWITCH).toBe('--silent-debugger-extension-api');
  });
});
