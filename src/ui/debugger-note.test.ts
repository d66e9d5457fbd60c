import { describe, expect, it } from 'vitest';
import { describeDebugger } from './debugger-note';

describe('describeDebugger', () => {
  it.each<[boolean, string | null, string]>([
    [true, null, 'debugger'],
    [false, 'detached: canceled_by_user', 'debugger off: detached by the user (the \u201Cstarted debugging this browser\u201D bar was closed) \u00B7 page-level signals'],
    [false, 'detached: target_closed', 'debugger off: Chrome closed its session (the page went where extensions may not debug) \u00B7 page-level signals'],
    [false, 'Cannot access a chrome:// URL', 'debugger off: Cannot access a chrome:// URL \u00B7 page-level signals'],
    [false, null, 'debugger off: not attached yet \u00B7 page-level signals'],
  ])('attached %s, error %s', (attached, error, text) => {
    expect(describeDebugger({ debugger: attached, debuggerError: error }).text).toBe(text);
  });

  it('says in the tooltip what the page-level signals miss', () => {
    expect(describeDebugger({ debugger: false, debuggerError: 'detached: canceled_by_user' }).title).toContain('no console errors, crashes or dialogs');
  });
});
