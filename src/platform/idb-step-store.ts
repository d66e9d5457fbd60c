import type { Step } from '../../schemas/steps';
import type { StepStore } from '../steps/step-log';
import { openRecorderDb } from './db';

/** `StepStore` over the IndexedDB `steps` store. */
export class IdbStepStore implements StepStore {
  async put(steps: readonly Step[]): Promise<void> {
    if (steps.length === 0) return;
    const tx = (await openRecorderDb()).transaction('steps', 'readwrite');
    await Promise.all([...steps.map((step) => tx.store.put(step)), tx.done]);
  }

  async list(): Promise<Step[]> {
    return (await openRecorderDb()).getAll('steps');
  }

  async delete(seqs: readonly number[]): Promise<void> {
    if (seqs.length === 0) return;
    const tx = (await openRecorderDb()).transaction('steps', 'readwrite');
    await Promise.all([...seqs.map((seq) => tx.store.delete(seq)), tx.done]);
  }
}
