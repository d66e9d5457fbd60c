import { describe, expect, it } from 'vitest';
import { bundleTrigger } from './bundle-trigger';

describe('bundleTrigger', () => {
  it.each([
    ['page', 'page'],
    ['agent', 'agent'],
    ['operator', 'operator'],
    ['debugger', 'signal'],
    ['web_request', 'signal'],
    ['page_fallback', 'signal'],
  ] as const)('a signal from %s: %s', (origin, want) => {
    expect(bundleTrigger(origin)).toBe(want);
  });
});
