import path from 'node:path';

/**
 * Chromium's switch that keeps the "started debugging this browser" infobar out of the window. The
 * recorder's debugger session would raise it, and it takes the bottom 87–143 px of the window: the
 * frames would then miss the bottom of the page's viewport (a fixed footer, a button down there).
 */
export const SILENT_DEBUGGER_SWITCH = '--silent-debugger-extension-api';

/**
 * Chromium's switches for a launch with the recorder: load the built extension (`.output/chrome-mv3`)
 * and no other, and no debugger infobar (`SILENT_DEBUGGER_SWITCH`), so frames show the whole viewport.
 *
 * @example
 * import { chromium } from 'playwright-core';
 * import { connectRecorder, recorderLaunchArgs } from 'agent-flight-recorder/client';
 *
 * const context = await chromium.launchPersistentContext('/tmp/agent-profile', { args: recorderLaunchArgs('/path/to/chrome-mv3') });
 * const rec = await connectRecorder(context);
 */
export function recorderLaunchArgs(extensionDir: string): string[] {
  const dir = path.resolve(extensionDir);
  return [`--disable-extensions-except=${dir}`, `--load-extension=${dir}`, SILENT_DEBUGGER_SWITCH];
}
