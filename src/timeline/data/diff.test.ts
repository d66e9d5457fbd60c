// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { TimelineDiffSchema, type TimelineSnapshot } from '../../../schemas/timeline';
import { BUILT_IN_MASKER } from '../../redact/mask-text';
import { describeDiff } from './describe-diff';
import { diffSnapshots } from './diff';
import { rebuildAt } from './rebuild';
import { startTimeline, type TimelineRecorder } from '../page/timeline-recorder';

const CHECKOUT = `<head></head><body><header><a href="/cart">Cart <span id="cart-count">0</span></a></header>
  <main><form id="checkout"><h2>Shipping</h2>
    <label>City <input id="city" name="city"></label>
    <label>Password <input id="password" type="password"></label>
    <label><input id="terms" type="checkbox"> I agree</label>
    <button id="add" type="button">Add to cart</button><button type="submit">Place order</button></form></main></body>`;

let recorder: TimelineRecorder | null = null;
afterEach(() => recorder?.stop());

function pageAt(rec: TimelineRecorder, label: string): TimelineSnapshot {
  const cp = rec.checkpoint(label);
  return rebuildAt(rec.data(), cp.seq)!;
}

function type(selector: string, value: string): void {
  const el = document.querySelector(selector) as HTMLInputElement;
  el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('diffSnapshots and describeDiff', () => {
  it('says the cart count changed after "add to cart"', () => {
    document.documentElement.innerHTML = CHECKOUT;
    const rec = (recorder = startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 60 }));
    const before = pageAt(rec, 'click Add to cart');
    document.getElementById('cart-count')!.textContent = '1';
    const diff = diffSnapshots(before, pageAt(rec, 'next step'));
    expect(() => TimelineDiffSchema.parse(diff)).not.toThrow();
    expect(diff.text).toMatchObject([{ tag: 'span', label: '#cart-count', from: '0', to: '1' }]);
    expect(describeDiff(diff)).toContain("the text of the span '#cart-count' changed from '0' to '1'");
  });

  it('says the form disappeared and an h1 appeared when the page is replaced in place', () => {
    document.documentElement.innerHTML = CHECKOUT;
    const rec = (recorder = startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 60 }));
    const before = pageAt(rec, 'click Place order');
    document.querySelector('main')!.innerHTML = '<h1>Internal Server Error</h1>';
    const diff = diffSnapshots(before, pageAt(rec, 'after'));
    expect(describeDiff(diff)).toBe("the form '#checkout' disappeared, an h1 'Internal Server Error' appeared");
  });

  it('says the same across a navigation to another document', () => {
    document.documentElement.innerHTML = CHECKOUT;
    const first = startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 60, documentId: 'checkout' });
    const before = pageAt(first, 'click Place order');
    first.stop();
    document.documentElement.innerHTML = '<head></head><body><h1>Internal Server Error</h1></body>';
    const rec = (recorder = startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 60, documentId: 'error' }));
    const diff = diffSnapshots(before, pageAt(rec, 'loaded'));
    expect(diff.new_document).toBe(true);
    expect(describeDiff(diff)).toBe("a new page loaded, the form '#checkout' disappeared, an h1 'Internal Server Error' appeared");
  });

  it('reports a typed value, a checked box, and a password only as withheld', () => {
    document.documentElement.innerHTML = CHECKOUT;
    const rec = (recorder = startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 60 }));
    const before = pageAt(rec, 'fill');
    type('#city', 'Paris');
    type('#password', 'Hunter2!typed');
    (document.getElementById('terms') as HTMLInputElement).checked = true;
    document.getElementById('terms')!.dispatchEvent(new Event('change', { bubbles: true }));
    const diff = diffSnapshots(before, pageAt(rec, 'submit'));
    const words = describeDiff(diff);
    expect(words).toContain("the input 'City' changed from '' to 'Paris'");
    expect(words).toContain("the input 'I agree' was checked");
    expect(JSON.stringify(diff)).not.toContain('Hunter2');
    expect(diff.values.find((v) => v.label === 'Password')).toBeUndefined();
  });

  it('finds nothing between two checkpoints of an unchanged page', () => {
    document.documentElement.innerHTML = CHECKOUT;
    const rec = (recorder = startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 60 }));
    const diff = diffSnapshots(pageAt(rec, 'a'), pageAt(rec, 'b'));
    expect(describeDiff(diff)).toBe('nothing changed');
  });

  it('counts what it leaves out of a long description', () => {
    document.documentElement.innerHTML = '<head></head><body><ul id="l"></ul></body>';
    const rec = (recorder = startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 60 }));
    const before = pageAt(rec, 'a');
    document.getElementById('l')!.innerHTML = '<li>a</li><li>b</li><li>c</li><li>d</li><li>e</li><li>f</li><li>g</li><li>h</li>';
    expect(describeDiff(diffSnapshots(before, pageAt(rec, 'b')))).toMatch(/^a li 'a' appeared, a li 'b' appeared, .*, and 2 more changes$/);
  });
});
