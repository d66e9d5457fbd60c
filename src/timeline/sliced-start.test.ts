// @vitest-environment happy-dom
import { afterEach, expect, it } from 'vitest';
import { BUILT_IN_MASKER } from '../redact/mask-text';
import { takeSnapshot } from '../snapshot/take-snapshot';
import { rebuildAt } from '../timeline-data/rebuild';
import { comparable, mutateRandomly, seededRandom } from './test-pages';
import { startTimelineInSlices, type TimelineRecorder } from './timeline-recorder';

let recorder: TimelineRecorder | null = null;
afterEach(() => recorder?.stop());

// `div role=form`, not `form`: see the note on happy-dom's form Proxy in test-pages.ts.
const cards = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<section><h3>Card ${i}</h3><div role="form"><label>Qty <input name="q${i}"></label><button>Add</button></div><ul><li>a</li><li>b</li></ul></section>`,
  ).join('');

const fresh = () => comparable(takeSnapshot(document, BUILT_IN_MASKER, { maxNodes: 1e6 }).root);

it.each(Array.from({ length: 12 }, (_, i) => i + 1))(
  'takes the first snapshot in slices while the page keeps changing, and ends with the page as it is (seed %i)',
  async (seed) => {
    document.documentElement.innerHTML = `<head></head><body><main id="app">${cards(40)}</main></body>`;
    const rnd = seededRandom(seed);
    const app = document.getElementById('app')!;
    let ticks = 0;
    let slices = 0;
    const rec = (recorder = await startTimelineInSlices(
      document,
      BUILT_IN_MASKER,
      { bufferSeconds: 60 },
      {
        sliceMs: 15,
        clock: () => ticks++,
        pause: async () => {
          slices++;
          for (let i = 0; i < 3; i++) mutateRandomly(document, app, rnd);
          await Promise.resolve();
        },
      },
    ));
    expect(slices).toBeGreaterThan(5);
    const { seq } = rec.checkpoint('started');
    expect(comparable(rebuildAt(rec.data(), seq)!.root)).toEqual(fresh());
    // It records on from there.
    for (let i = 0; i < 5; i++) mutateRandomly(document, app, rnd);
    const next = rec.checkpoint('next');
    expect(comparable(rebuildAt(rec.data(), next.seq)!.root)).toEqual(fresh());
  },
);
