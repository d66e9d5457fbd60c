import { describe, expect, it } from 'vitest';
import { MemoryOutbox } from '../../test/fakes/memory-outbox';
import { objectKeys } from '../bundle-format/bucket-layout';
import { newEntry } from './outbox';
import { SpillOutbox } from './spill-outbox';

const quota = () => Object.assign(new Error(''), { name: 'QuotaExceededError' });
const isFull = (e: unknown) => (e as Error).name === 'QuotaExceededError';
const entry = (id: string) => newEntry({ id, sizeBytes: 10 }, objectKeys('p', id, '2026-11-25T09:00:00.000Z'), 1_000, false);

/** A store that refuses writes while `full` is set. */
function fillable() {
  const store = new MemoryOutbox();
  const state = { full: false };
  const put = store.put.bind(store);
  store.put = (e) => (state.full ? Promise.reject(quota()) : put(e));
  return { store, state };
}

describe('SpillOutbox', () => {
  it('puts an entry IndexedDB refuses in the overflow store, and reads it back with the others', async () => {
    const idb = fillable();
    const overflow = new MemoryOutbox();
    const spills: string[] = [];
    const outbox = new SpillOutbox(idb.store, overflow, isFull, (where) => spills.push(where));
    await outbox.put(entry('a'));
    idb.state.full = true;
    await outbox.put(entry('b'));
    expect(spills).toEqual(['overflow']);
    expect([...idb.store.entries.keys()]).toEqual(['a']);
    expect([...overflow.entries.keys()]).toEqual(['b']);
    expect((await outbox.list()).map((e) => e.bundleId).sort()).toEqual(['a', 'b']);
    await outbox.put({ ...entry('b'), state: 'delivered' });
    expect(await outbox.get('b')).toMatchObject({ state: 'delivered' });
    // Room again: the entry moves back, and no stale copy shadows it.
    idb.state.full = false;
    await outbox.put({ ...entry('b'), state: 'delivered', attempts: 2 });
    expect(overflow.entries.size).toBe(0);
    expect(await outbox.get('b')).toMatchObject({ attempts: 2 });
  });

  it('keeps an entry in memory when the overflow store refuses it too, and deletes from everywhere', async () => {
    const idb = fillable();
    const overflow = fillable();
    idb.state.full = overflow.state.full = true;
    const spills: string[] = [];
    const outbox = new SpillOutbox(idb.store, overflow.store, isFull, (where) => spills.push(where));
    await outbox.put(entry('a'));
    expect(spills).toEqual(['memory']);
    expect(await outbox.get('a')).toMatchObject({ bundleId: 'a', state: 'pending' });
    expect(await outbox.list()).toHaveLength(1);
    await outbox.delete('a');
    expect(await outbox.list()).toEqual([]);
  });

  it('passes on errors that are not a full store', async () => {
    const idb = new MemoryOutbox();
    idb.put = () => Promise.reject(new Error('database closed'));
    await expect(new SpillOutbox(idb, new MemoryOutbox(), isFull, () => {}).put(entry('a'))).rejects.toThrow('database closed');
  });
});
