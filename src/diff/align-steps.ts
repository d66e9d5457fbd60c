/*
 * Two runs' actions lined up by key (`step-key.ts`), not by index: the longest common subsequence of
 * their keys, as `diff` lines up two files. An action one run has and the other has not is `only`; when
 * its key repeats the action next to it in its own run, it is a retry.
 */

/** One row of the alignment: the same action in both runs, or an action of one run only. */
export type AlignedPair =
  | { kind: 'same'; a: number; b: number }
  | { kind: 'only'; side: 'a' | 'b'; index: number; retry: boolean };

/** Most cells of the table the alignment fills (the part between the common start and end): 16 Mi. */
export const MAX_ALIGN_CELLS = 16 * 1024 * 1024;

/** Whether `keys[i]` repeats its neighbour in its own run. */
const repeatsNeighbour = (keys: readonly string[], i: number) => keys[i - 1] === keys[i] || keys[i + 1] === keys[i];

/**
 * Lines up `a` and `b` (keys, by position): their common start and end directly, the middle by longest
 * common subsequence; past `MAX_ALIGN_CELLS` the middle is left unmatched. Of an action repeated in
 * one run only, one attempt is matched and the others are retries.
 * @example alignSteps(['open', 'pay'], ['open', 'pay', 'pay']) // same 0/0, same 1/1, only b 2 (retry)
 */
export function alignSteps(a: readonly string[], b: readonly string[]): AlignedPair[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end += 1;
  const middle = alignMiddle(a, b, start, a.length - end, start, b.length - end);
  const pairs: AlignedPair[] = [];
  for (let i = 0; i < start; i += 1) pairs.push({ kind: 'same', a: i, b: i });
  pairs.push(...middle);
  for (let k = end; k > 0; k -= 1) pairs.push({ kind: 'same', a: a.length - k, b: b.length - k });
  return pairs.map((pair) => (pair.kind === 'only' ? { ...pair, retry: repeatsNeighbour(pair.side === 'a' ? a : b, pair.index) } : pair));
}

function alignMiddle(a: readonly string[], b: readonly string[], a0: number, a1: number, b0: number, b1: number): AlignedPair[] {
  const n = a1 - a0;
  const m = b1 - b0;
  const onlyA = (i: number): AlignedPair => ({ kind: 'only', side: 'a', index: i, retry: false });
  const onlyB = (j: number): AlignedPair => ({ kind: 'only', side: 'b', index: j, retry: false });
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_ALIGN_CELLS) {
    return [...Array.from({ length: n }, (_, i) => onlyA(a0 + i)), ...Array.from({ length: m }, (_, j) => onlyB(b0 + j))];
  }
  // lcs[i][j]: the longest common subsequence of a[a0+i..] and b[b0+j..], walked forward from (0, 0).
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lcs[i * width + j] = a[a0 + i] === b[b0 + j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const pairs: AlignedPair[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[a0 + i] === b[b0 + j]) {
      // Matching equal keys is always part of a longest alignment.
      pairs.push({ kind: 'same', a: a0 + i, b: b0 + j });
      i += 1;
      j += 1;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      pairs.push(onlyA(a0 + i));
      i += 1;
    } else {
      pairs.push(onlyB(b0 + j));
      j += 1;
    }
  }
  for (; i < n; i += 1) pairs.push(onlyA(a0 + i));
  for (; j < m; j += 1) pairs.push(onlyB(b0 + j));
  return pairs;
}
