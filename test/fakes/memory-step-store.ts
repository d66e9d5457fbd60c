import type { Step } from '../../schemas/steps';
import type { StepStore } from '../../src/steps/step-log';

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
