// @vitest-environment happy-dom
import { afterEach, expect, it, vi } from 'vitest';
import { BUILT_IN_MASKER, type TextMasker } from '../../redact/mask-text';
import { rebuildAt } from '../data/rebuild';
import { startTimeline, type TimelineRecorder } from './timeline-recorder';

let recorder: TimelineRecorder | null = null;
afterEach(() => recorder?.stop());

it('cuts a page nested 3,000 deep at the depth limit, marked truncated, without overflowing the stack', () => {
  document.documentElement.innerHTML = `<head></head><body>${'<div>'.repeat(3000)}deep${'</div>'.repeat(3000)}</body>`;
  const rec = (recorder = startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 60 }));
  const cp = rec.checkpoint('start');
  expect(cp.truncated).toBe(true);
  expect(rebuildAt(rec.data(), cp.seq)!.node_count).toBeLessThanOrEqual(102);
});

it('keeps a megabyte of text within the text cap, masked', () => {
  document.documentElement.innerHTML = '<head></head><body><p id="p"></p></body>';
  const rec = (recorder = startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 60 }));
  document.getElementById('p')!.textContent = `mail flood.planted@example.com ${'x'.repeat(1 << 20)}`;
  const { seq } = rec.checkpoint('flood');
  const snap = rebuildAt(rec.data(), seq)!;
  const text = snap.root.children![0]!.children![0]!.text!;
  // Past the masker's scan limit, text is cut at its last white space (see `TextMasker.maskAndCap`).
  expect(text.length).toBeLessThanOrEqual(300);
  expect(text.startsWith('mail [email]')).toBe(true);
  expect(JSON.stringify(rec.data())).not.toContain('planted');
});

it('logs a failure while processing changes, never throws it into the page, and keeps recording', () => {
  document.documentElement.innerHTML = '<head></head><body><p id="p">calm</p></body>';
  const masker: TextMasker = {
    ...BUILT_IN_MASKER,
    maskAndCap(text, cap, counts) {
      if (text.includes('BOOM')) throw new Error('masker broke');
      return BUILT_IN_MASKER.maskAndCap(text, cap, counts);
    },
  };
  const warn = vi.fn();
  const rec = (recorder = startTimeline(document, masker, { bufferSeconds: 60, warn }));
  document.getElementById('p')!.textContent = 'BOOM';
  expect(() => rec.checkpoint('boom')).not.toThrow();
  expect(warn).toHaveBeenCalledWith('timeline: mutation processing failed', expect.any(Error));
  document.getElementById('p')!.textContent = 'calm again';
  const { seq } = rec.checkpoint('after');
  const snap = rebuildAt(rec.data(), seq)!;
  expect(snap.root.children![0]!.children![0]!.text).toBe('calm again');
  expect(JSON.stringify(rec.data())).not.toContain('BOOM');
});
