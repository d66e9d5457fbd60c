import { describe, expect, it } from 'vitest';
import { failureFacts, lastActionBefore } from './failure-facts';

const step = (ts: number, kind: 'click' | 'signal' | 'mark' | 'agent', action: string, name?: string) => ({
  ts,
  kind,
  action,
  target: name === undefined ? null : { tag: 'button', role: 'button', name, selector: '#x' },
});

describe('lastActionBefore', () => {
  it('is the last action at or before the failure, not a signal, a mark or a later step', () => {
    const steps = [step(10, 'click', 'click', 'Add to cart'), step(20, 'agent', 'Pay for the order'), step(25, 'mark', 'checkpoint'), step(30, 'signal', 'HTTP 503'), step(40, 'click', 'click', 'Retry')];
    expect(lastActionBefore(steps, 30)).toEqual({ action: 'Pay for the order', target: null });
    expect(lastActionBefore(steps, 15)).toEqual({ action: 'click', target: { tag: 'button', role: 'button', name: 'Add to cart' } });
    expect(lastActionBefore(steps, 5)).toBeNull();
  });
});

describe('failureFacts', () => {
  it('takes the signal as a bundle keeps it and the last action', () => {
    const failure = { reason: 'http_5xx', message: 'HTTP 503: GET https://shop.test/api', url: 'https://shop.test/cart', stack: null, ts: 50, request: { url: 'https://shop.test/api', method: 'GET', status: 503, resource_type: 'Fetch', duration_ms: 12, error_text: null } };
    expect(failureFacts(failure, [step(40, 'click', 'click', 'Update')])).toEqual({
      reason: 'http_5xx',
      message: 'HTTP 503: GET https://shop.test/api',
      url: 'https://shop.test/cart',
      stack: null,
      request: { method: 'GET', url: 'https://shop.test/api', status: 503 },
      lastStep: { action: 'click', target: { tag: 'button', role: 'button', name: 'Update' } },
    });
  });
});
