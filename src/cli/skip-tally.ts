import { escapeControls } from './safe-text';

/** Why an object under `index/` was left out of a read of the index. */
export type SkipKind = 'not JSON' | 'another version' | 'too large' | 'not an index record' | 'unreadable';

/** Keys named per read: a bucket of 100,000 bad objects is counted, not listed. */
const EXAMPLES = 5;

/**
 * What a read of the index left out, counted by kind, with the first few keys as examples. Anyone who
 * can write the bucket writes keys: they are escaped here (as fields) before a line is made of them.
 */
export class SkipTally {
  readonly counts = new Map<SkipKind, number>();
  readonly examples: string[] = [];
  total = 0;

  add(kind: SkipKind, key: string): void {
    this.total++;
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    if (this.examples.length < EXAMPLES) this.examples.push(`${escapeControls(key)}: ${kind}`);
  }

  /** `left out 7 objects: 4 not JSON, 3 too large`, then the examples; nothing when none was. */
  lines(prefix: string): string[] {
    if (this.total === 0) return [];
    const kinds = [...this.counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
    return [`${prefix}: left out ${this.total} object${this.total === 1 ? '' : 's'} of the index: ${kinds}`, ...this.examples.map((e) => `${prefix}:   ${e}`), ...(this.total > this.examples.length ? [`${prefix}:   and ${this.total - this.examples.length} more`] : [])];
  }

  toJSON(): { count: number; kinds: Record<string, number>; examples: string[] } {
    return { count: this.total, kinds: Object.fromEntries(this.counts), examples: this.examples };
  }
}
