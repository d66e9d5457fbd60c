import { describe, expect, it } from 'vitest';
import type { FailureSignal } from '../../schemas/failure';
import { bundleSummary } from './bundle-summary';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const manifest = { bundle_id: 'afr-x', failure_reason: 'http_5xx', failure_label: null, tab_id: 7 };

describe('bundleSummary', () => {
  it('lists the stored bundle, not downloaded yet', () => {
    expect(bundleSummary(manifest, { url: 'https://shop.test/', origin: 'debugger' }, 1_234, T0, undefined)).toEqual({
      id: 'afr-x',
      createdAt: new Date(T0).toISOString(),
      reason: 'http_5xx',
      label: null,
      tabId: 7,
      url: 'https://shop.test/',
      sizeBytes: 1_234,
      downloadId: null,
      trigger: 'signal',
    });
  });

  it.each([
    { origin: 'page', unattended: undefined, trigger: 'page', flagged: false },
    { origin: 'agent', unattended: false, trigger: 'agent', flagged: false },
    { origin: 'operator', unattended: undefined, trigger: 'operator', flagged: false },
    { origin: 'web_request', unattended: true, trigger: 'signal', flagged: true },
  ] as { origin: FailureSignal['origin']; unattended: boolean | undefined; trigger: string; flagged: boolean }[])('from $origin (unattended $unattended): trigger $trigger', ({ origin, unattended, trigger, flagged }) => {
    const summary = bundleSummary(manifest, { url: null, origin }, 1, T0, unattended);
    expect(summary.trigger).toBe(trigger);
    expect('unattended' in summary).toBe(flagged);
  });
});
