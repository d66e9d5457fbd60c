import { describe, expect, it } from 'vitest';
import { echoText, ExceptionEchoes, matchEcho, type SeenException } from './exception-echo';
import type { RawSignal } from './signal-rules';
import { BUILT_IN_MASKER } from '../redact/mask-text';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const exception = (origin: RawSignal['origin'], message: string, ts = T0, tabId: number | null = 7): RawSignal => ({
  kind: 'exception',
  tabId,
  pageUrl: null,
  ts,
  message,
  stack: null,
  request: null,
  origin,
});

describe('echoText', () => {
  it.each([
    ['the page’s "Uncaught " goes', 'page_fallback', 'Uncaught Error: boom', 'Error: boom'],
    ['CDP’s message is kept', 'debugger', 'Error: boom', 'Error: boom'],
    ['a rejection keeps its prefix, from the page', 'page_fallback', 'Uncaught (in promise): Error: x', 'Uncaught (in promise): Error: x'],
    ['only the first line counts', 'debugger', 'Error: total\nexpected 3\n    at f (a.js:1:1)', 'Error: total'],
    ['masked as the page masks it', 'debugger', 'Error: card 4111 1111 1111 1111', 'Error: card [card]'],
  ] as const)('%s', (_name, origin, message, text) => {
    expect(echoText(message, origin, BUILT_IN_MASKER)).toBe(text);
  });

  it('is capped', () => {
    expect(echoText(`Error: ${'x'.repeat(5_000)}`, 'debugger', BUILT_IN_MASKER).length).toBe(1_024);
  });
});

describe('matchEcho', () => {
  it('matches the other source’s report of one exception once, and remembers what it did not match', () => {
    const first = matchEcho([], exception('page_fallback', 'Uncaught Error: boom'), T0 + 10, BUILT_IN_MASKER);
    expect(first).toEqual({ echo: false, seen: [{ at: T0 + 10, thrown: T0, text: 'Error: boom', origin: 'page_fallback' }] });
    const twin = matchEcho(first.seen, exception('debugger', 'Error: boom', T0 + 2), T0 + 40, BUILT_IN_MASKER);
    expect(twin).toEqual({ echo: true, seen: [] });
  });

  it.each([
    ['from the same source', exception('page_fallback', 'Uncaught Error: boom', T0 + 1)],
    ['thrown over a second apart', exception('debugger', 'Error: boom', T0 + 1_500)],
    ['of another message', exception('debugger', 'Error: other')],
    ['a rejection of the message a "Script error." hides', exception('debugger', 'Uncaught (in promise): Error: x')],
  ])('does not match a report %s', (_name, raw) => {
    const seen: SeenException[] = [{ at: T0, thrown: T0, text: raw.message.startsWith('Uncaught (in') ? 'Script error.' : 'Error: boom', origin: 'page_fallback' }];
    expect(matchEcho(seen, raw, T0 + 10, BUILT_IN_MASKER).echo).toBe(false);
  });

  it('matches CDP’s message with the page’s "Script error." (another origin’s script)', () => {
    const seen: SeenException[] = [{ at: T0, thrown: T0, text: 'Script error.', origin: 'page_fallback' }];
    expect(matchEcho(seen, exception('debugger', 'TypeError: widget is null'), T0 + 10, BUILT_IN_MASKER).echo).toBe(true);
  });

  it('prefers a twin of the same message to a "Script error."', () => {
    const seen: SeenException[] = [
      { at: T0, thrown: T0, text: 'Script error.', origin: 'page_fallback' },
      { at: T0, thrown: T0, text: 'Error: y', origin: 'page_fallback' },
    ];
    expect(matchEcho(seen, exception('debugger', 'Error: y'), T0, BUILT_IN_MASKER).seen).toEqual([seen[0]]);
  });

  it('forgets reports a minute old, waits no twin for a replay from long ago, and keeps 20 at most', () => {
    const old: SeenException = { at: T0 - 60_000, thrown: T0 - 60_000, text: 'Error: boom', origin: 'page_fallback' };
    expect(matchEcho([old], exception('debugger', 'Error: boom', T0 - 60_001), T0, BUILT_IN_MASKER)).toEqual({ echo: false, seen: [] });
    let seen: SeenException[] = [];
    for (let i = 0; i < 30; i++) seen = matchEcho(seen, exception('debugger', `Error: ${i}`), T0, BUILT_IN_MASKER).seen;
    expect(seen.map((e) => e.text)).toEqual(Array.from({ length: 20 }, (_, i) => `Error: ${i + 10}`));
  });
});

/** Compared and kept, as the signal intake does with a signal it records or bundles. */
function isEcho(echoes: ExceptionEchoes, ...args: Parameters<ExceptionEchoes['compare']>): boolean {
  const compared = echoes.compare(...args);
  compared.keep();
  return compared.echo;
}

describe('ExceptionEchoes', () => {
  it('remembers nothing of a report compared and not kept (a signal dropped before its comparison counts)', () => {
    const echoes = new ExceptionEchoes();
    expect(echoes.compare(exception('page_fallback', 'Uncaught Error: boom'), T0, BUILT_IN_MASKER).echo).toBe(false);
    expect(isEcho(echoes, exception('debugger', 'Error: boom'), T0, BUILT_IN_MASKER)).toBe(false);
    expect(isEcho(echoes, exception('page_fallback', 'Uncaught Error: boom'), T0, BUILT_IN_MASKER)).toBe(true);
  });

  it('keeps each tab’s reports apart, and forgets a closed tab’s', () => {
    const echoes = new ExceptionEchoes();
    expect(isEcho(echoes, exception('page_fallback', 'Uncaught Error: boom'), T0, BUILT_IN_MASKER)).toBe(false);
    expect(isEcho(echoes, exception('debugger', 'Error: boom', T0, 8), T0, BUILT_IN_MASKER)).toBe(false);
    echoes.forget(7);
    expect(isEcho(echoes, exception('debugger', 'Error: boom'), T0, BUILT_IN_MASKER)).toBe(false);
    expect(isEcho(echoes, exception('page_fallback', 'Uncaught Error: boom', T0, 8), T0, BUILT_IN_MASKER)).toBe(true);
  });

  it('never takes another kind of signal, or one of no tab, for an echo', () => {
    const echoes = new ExceptionEchoes();
    const page = exception('page_fallback', 'Uncaught Error: boom', T0, null);
    expect([isEcho(echoes, page, T0, BUILT_IN_MASKER), isEcho(echoes, { ...page, origin: 'debugger', message: 'Error: boom' }, T0, BUILT_IN_MASKER)]).toEqual([false, false]);
    const crash: RawSignal = { ...exception('debugger', 'Error: boom'), kind: 'crash' };
    expect([isEcho(echoes, crash, T0, BUILT_IN_MASKER), isEcho(echoes, crash, T0, BUILT_IN_MASKER)]).toEqual([false, false]);
  });
});
