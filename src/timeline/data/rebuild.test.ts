// @vitest-environment happy-dom
import { afterEach, expect, it } from 'vitest';
import { BUILT_IN_MASKER } from '../../redact/mask-text';
import { checkpointsOf, rebuildAll, rebuildAt, samePage } from './rebuild';
import { startTimeline, type TimelineRecorder } from '../page/timeline-recorder';

let recorder: TimelineRecorder | null = null;
afterEach(() => recorder?.stop());

it('rebuilds every checkpoint in one pass, sharing the tree of identical pages', () => {
  document.documentElement.innerHTML = '<head></head><body><span id="c">0</span></body>';
  const rec = (recorder = startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 60 }));
  rec.checkpoint('a');
  rec.checkpoint('b');
  document.getElementById('c')!.textContent = '1';
  rec.checkpoint('c');
  const data = rec.data();
  const all = rebuildAll(data);
  expect(all.map((s) => s.label)).toEqual(['a', 'b', 'c']);
  expect(all.map((s) => s.root.children![0]!.children![0]!.text)).toEqual(['0', '0', '1']);
  expect(all[1]!.root).toBe(all[0]!.root);
  expect(all[2]!.root).not.toBe(all[1]!.root);
  const [a, b, c] = checkpointsOf(data);
  expect(samePage(a!, b!)).toBe(true);
  expect(samePage(b!, c!)).toBe(false);
  all.forEach((s) => expect(rebuildAt(data, s.checkpoint)).toEqual(s));
});

it('answers null for a checkpoint it does not hold', () => {
  document.documentElement.innerHTML = '<head></head><body></body>';
  const rec = (recorder = startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 60 }));
  rec.checkpoint('only');
  expect(rebuildAt(rec.data(), 7)).toBeNull();
});
