import { describe, expect, it } from 'vitest';
import { addExpectation, settleCheck, type FrameExpectation, type SilenceWatch } from './silence-watch';

/** An action's expectation at `at`: 400 ms of silence, screenshots 500 ms apart. */
const action = (at: number): FrameExpectation => ({ since: at, due: at + 400, spacingMs: 500 });
/** A new page's, at its first report: 100 ms, not spaced. */
const newPage = (at: number): FrameExpectation => ({ since: at, due: at + 100, spacingMs: 0 });

describe('addExpectation', () => {
  it.each<{ label: string; watch: SilenceWatch | undefined; next: FrameExpectation; ownStart: boolean; expected: SilenceWatch }>([
    { label: 'the first one is the check', watch: undefined, next: action(0), ownStart: false, expected: { check: action(0) } },
    { label: 'an action is covered by the check pending', watch: { check: action(0) }, next: action(100), ownStart: false, expected: { check: action(0) } },
    {
      label: "a new page's sooner check takes the place of a navigating click's, with its start and no spacing",
      watch: { check: action(0) },
      next: newPage(200),
      ownStart: true,
      expected: { check: newPage(200) },
    },
    {
      label: "a new page's check due after the pending one stays, to be checked after it",
      watch: { check: action(0) },
      next: newPage(350),
      ownStart: true,
      expected: { check: action(0), then: newPage(350) },
    },
    {
      label: 'a sooner one covers the pending check and the one after it',
      watch: { check: action(0), then: newPage(350) },
      next: { since: 360, due: 380, spacingMs: 0 },
      ownStart: true,
      expected: { check: { since: 360, due: 380, spacingMs: 0 } },
    },
    {
      label: 'two to check later: the later start with the sooner time',
      watch: { check: action(0), then: newPage(350) },
      next: action(380),
      ownStart: true,
      expected: { check: action(0), then: { since: 380, due: 450, spacingMs: 0 } },
    },
  ])('$label', ({ watch, next, ownStart, expected }) => {
    expect(addExpectation(watch, next, ownStart)).toEqual(expected);
  });
});

describe('settleCheck', () => {
  it.each<{ label: string; watch: SilenceWatch; latest: number; expected: ReturnType<typeof settleCheck> }>([
    { label: 'no frame since its start: a screenshot, at its spacing', watch: { check: action(0) }, latest: -1, expected: { screenshot: 500 } },
    { label: 'a frame since its start: nothing', watch: { check: action(0) }, latest: 10, expected: null },
    {
      label: "a frame of the page before (after the click, before the new page's report): the new page is checked next",
      watch: { check: action(0), then: newPage(350) },
      latest: 10,
      expected: { then: newPage(350) },
    },
    { label: "a frame after the new page's report meets both", watch: { check: action(0), then: newPage(350) }, latest: 360, expected: null },
    {
      label: "no frame at all: one screenshot, which meets the next check too (not spaced: the new page's is not)",
      watch: { check: action(0), then: newPage(350) },
      latest: -1,
      expected: { screenshot: 0 },
    },
  ])('$label', ({ watch, latest, expected }) => {
    expect(settleCheck(watch, latest)).toEqual(expected);
  });
});
