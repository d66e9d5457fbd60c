import type { Step, StepDraft } from '../../schemas/steps';
import type { Clock } from '../shared/clock';
import { onceUntilFailure } from '../shared/once-until-failure';
import { stepsToEvict, type StepLogLimits } from './step-eviction';

/** Persistent step storage (IndexedDB `steps` in production). */
export interface StepStore {
  /** Stores the steps together (one transaction). */
  put(steps: readonly Step[]): Promise<void>;
  list(): Promise<Step[]>;
  delete(seqs: readonly number[]): Promise<void>;
}

export type { StepLogLimits };

/** Steps in timeline order: by time, and by arrival where two steps share a millisecond. */
export function mergeSteps(...lists: readonly (readonly Step[])[]): Step[] {
  return lists.flat().sort((a, b) => a.ts - b.ts || a.seq - b.seq);
}

/**
 * The run's timeline of steps from the observer, the agent and the recorder, bounded in count (each
 * tab its own cap, and all together) and age: see `stepsToEvict`.
 * Steps are kept in memory and written through to the store; a write the store refuses (IndexedDB
 * out of quota) leaves the steps on the timeline, in memory only. The first refusal of a spell is
 * reported to `onStoreError` (not every batch while the disk stays full).
 */
export class StepLog {
  private steps: Step[] = [];
  private nextSeq = 1;
  /** The store's last write failed. */
  private storeFailing = false;

  constructor(
    private readonly store: StepStore,
    private readonly clock: Clock,
    private limits: StepLogLimits,
    private readonly onStoreError: (error: unknown) => void = () => {},
  ) {}

  load(): Promise<void> {
    return this.loadOnce();
  }

  // Not loaded after a failure: the next call tries again (a store that failed once may answer now).
  private readonly loadOnce = onceUntilFailure(async () => {
    this.steps = mergeSteps(await this.store.list());
    this.nextSeq = this.steps.reduce((max, s) => Math.max(max, s.seq), 0) + 1;
    await this.trim();
  });

  setLimits(limits: StepLogLimits): Promise<void> {
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

  /** The seq of the latest step (by arrival) that `matches`, or null when the timeline holds none. */
  async latestSeq(matches: (step: Step) => boolean): Promise<number | null> {
    await this.load();
    for (let i = this.steps.length - 1; i >= 0; i--) if (matches(this.steps[i]!)) return this.steps[i]!.seq;
    return null;
  }

  private readonly storeFailed = (error: unknown): void => {
    if (!this.storeFailing) this.onStoreError(error);
    this.storeFailing = true;
  };

  get size(): number {
    return this.steps.length;
  }

  private async trim(): Promise<void> {
    const now = this.clock.now();
    const cutoff = now - this.limits.maxAgeMs;
    // The common case, every step kept, without sorting the timeline on each add.
    const perTab = this.limits.maxStepsPerTab ?? this.limits.maxSteps;
    if (this.steps.length <= Math.min(perTab, this.limits.maxSteps) && !this.steps.some((s) => s.ts < cutoff)) return;
    const gone = stepsToEvict(this.steps, now, this.limits);
    if (gone.size === 0) return;
    this.steps = this.steps.filter((s) => !gone.has(s.seq));
    await this.store.delete([...gone]).catch(this.storeFailed);
  }
}
