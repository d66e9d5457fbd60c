import type { Step, StepDraft } from '../../schemas/steps';
import type { Clock } from '../ring/ports';

/** Persistent step storage (IndexedDB `steps` in production). */
export interface StepStore {
  /** Stores the steps together (one transaction). */
  put(steps: readonly Step[]): Promise<void>;
  list(): Promise<Step[]>;
  delete(seqs: readonly number[]): Promise<void>;
}

export interface TimelineLimits {
  maxSteps: number;
  maxAgeMs: number;
}

/** Steps in timeline order: by time, and by arrival where two steps share a millisecond. */
export function mergeSteps(...lists: readonly (readonly Step[])[]): Step[] {
  return lists.flat().sort((a, b) => a.ts - b.ts || a.seq - b.seq);
}

/** Largest gap tolerated between a context's own timestamp and the recorder's receipt time. */
export const MAX_CLOCK_SKEW_MS = 5_000;

/**
 * One clock for the timeline: a timestamp reported by another context is kept (it is closer to the
 * action) unless it is further than `MAX_CLOCK_SKEW_MS` from the receipt time, as it is when a page
 * fakes its clock or a message waited in a queue; then the receipt time is used. `maxPastMs` allows a
 * report known to come late (an exception replayed, or reported after a worker started) to be older.
 */
export function reconcileTimestamp(reported: number, received: number, maxPastMs = MAX_CLOCK_SKEW_MS): number {
  return Number.isFinite(reported) && reported - received <= MAX_CLOCK_SKEW_MS && received - reported <= maxPastMs ? reported : received;
}

/**
 * The run's timeline of steps from the observer, the agent and the recorder, bounded in count and age.
 * Steps are kept in memory and written through to the store; a write the store refuses (IndexedDB
 * out of quota) leaves the steps on the timeline, in memory only. The first refusal of a spell is
 * reported to `onStoreError` (not every batch while the disk stays full).
 */
export class Timeline {
  private steps: Step[] = [];
  private nextSeq = 1;
  private loaded: Promise<void> | null = null;
  /** The store's last write failed. */
  private storeFailing = false;

  constructor(
    private readonly store: StepStore,
    private readonly clock: Clock,
    private limits: TimelineLimits,
    private readonly onStoreError: (error: unknown) => void = () => {},
  ) {}

  load(): Promise<void> {
    this.loaded ??= (async () => {
      this.steps = mergeSteps(await this.store.list());
      this.nextSeq = this.steps.reduce((max, s) => Math.max(max, s.seq), 0) + 1;
      await this.trim();
    })().catch((error: unknown) => {
      // Not loaded: the next call tries again (a store that failed once may answer now).
      this.loaded = null;
      throw error;
    });
    return this.loaded;
  }

  setLimits(limits: TimelineLimits): Promise<void> {
    this.limits = limits;
    return this.trim();
  }

  async add(draft: StepDraft): Promise<Step> {
    return (await this.addAll([draft]))[0]!;
  }

  /** Adds steps that arrived together (a page's batch), stored in one write. */
  async addAll(drafts: readonly StepDraft[]): Promise<Step[]> {
    await this.load();
    const steps: Step[] = drafts.map((draft) => ({ ...draft, seq: this.nextSeq++ }));
    this.steps.push(...steps);
    await this.store.put(steps).then(() => {
      this.storeFailing = false;
    }, this.storeFailed);
    await this.trim();
    return steps;
  }

  /** The steps of `tabId` (and those bound to no tab) within `[from, to]`, in timeline order. */
  async between(tabId: number | null, from: number, to: number): Promise<Step[]> {
    await this.load();
    return mergeSteps(this.steps.filter((s) => (s.tab_id === tabId || s.tab_id === null) && s.ts >= from && s.ts <= to));
  }

  /** Every tab's steps within `[from, to]`, in timeline order. */
  async inWindow(from: number, to: number): Promise<Step[]> {
    await this.load();
    return mergeSteps(this.steps.filter((s) => s.ts >= from && s.ts <= to));
  }

  private readonly storeFailed = (error: unknown): void => {
    if (!this.storeFailing) this.onStoreError(error);
    this.storeFailing = true;
  };

  get size(): number {
    return this.steps.length;
  }

  private async trim(): Promise<void> {
    const cutoff = this.clock.now() - this.limits.maxAgeMs;
    // The common case, every step kept, without sorting the timeline on each add.
    if (this.steps.length <= this.limits.maxSteps && !this.steps.some((s) => s.ts < cutoff)) return;
    const ordered = mergeSteps(this.steps);
    const overflow = Math.max(0, ordered.length - this.limits.maxSteps);
    const drop = ordered.filter((s, i) => i < overflow || s.ts < cutoff);
    if (drop.length === 0) return;
    const gone = new Set(drop.map((s) => s.seq));
    this.steps = ordered.filter((s) => !gone.has(s.seq));
    await this.store.delete([...gone]).catch(this.storeFailed);
  }
}

/** In-memory `StepStore` for tests. */
export class MemoryStepStore implements StepStore {
  readonly rows = new Map<number, Step>();
  async put(steps: readonly Step[]): Promise<void> {
    for (const step of steps) this.rows.set(step.seq, step);
  }
  async list(): Promise<Step[]> {
    return [...this.rows.values()];
  }
  async delete(seqs: readonly number[]): Promise<void> {
    for (const seq of seqs) this.rows.delete(seq);
  }
}
