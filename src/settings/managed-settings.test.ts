import { describe, expect, it, vi } from 'vitest';
import { MemoryKeyValueStore, SettingsError, SettingsStore, settingsForReadBack } from './settings-store';
import { parseManagedSettings } from './managed-settings';
import { SECRET_MASK } from '../../schemas/upload';

const FLEET_UPLOAD = {
  mode: 's3',
  s3: { endpoint: 'https://s3.eu-west-1.amazonaws.com', bucket: 'fleet-runs', region: 'eu-west-1', accessKeyId: 'AKIAFLEET', secretAccessKey: 'policy-secret-value' },
};

/** A policy source whose values the test changes, as an administrator would. */
function policy(values: unknown) {
  const source = { values, read: async () => source.values };
  return source;
}

describe('settings set by enterprise policy', () => {
  it('win over the user’s own, field by field', async () => {
    const storage = new MemoryKeyValueStore();
    await new SettingsStore(storage).update({ bufferSeconds: 30, autoDownload: false });
    const store = new SettingsStore(storage, () => {}, policy({ upload: FLEET_UPLOAD, autoDownload: true }));
    const settings = await store.load();
    expect(settings).toMatchObject({ bufferSeconds: 30, autoDownload: true, upload: { mode: 's3', s3: { bucket: 'fleet-runs', forcePathStyle: null } } });
    expect([...store.managedKeys()].sort()).toEqual(['autoDownload', 'upload']);
  });

  it('cannot be changed through configure, with a message naming them; other settings still can', async () => {
    const store = new SettingsStore(new MemoryKeyValueStore(), () => {}, policy({ upload: FLEET_UPLOAD }));
    await store.load();
    await expect(store.update({ upload: { mode: 'off' } })).rejects.toThrow(SettingsError);
    await expect(store.update({ upload: { mode: 'off' }, bufferSeconds: 20 })).rejects.toThrow(/^upload is set by your organization's policy/);
    expect(store.get().bufferSeconds).toBe(15);
    expect((await store.update({ bufferSeconds: 20 })).upload.s3.bucket).toBe('fleet-runs');
  });

  it('read back with the policy’s secrets masked like the user’s', async () => {
    const store = new SettingsStore(new MemoryKeyValueStore(), () => {}, policy({ upload: FLEET_UPLOAD }));
    const shown = settingsForReadBack(await store.load());
    expect(shown.upload.s3.secretAccessKey).toBe(SECRET_MASK);
    expect(JSON.stringify(shown)).not.toContain('policy-secret-value');
  });

  it('follow a policy change, and the user’s settings come back when the policy is lifted', async () => {
    const storage = new MemoryKeyValueStore();
    await new SettingsStore(storage).update({ bufferSeconds: 30 });
    const source = policy({});
    const store = new SettingsStore(storage, () => {}, source);
    await store.load();
    const heard = vi.fn();
    store.onChange(heard);
    source.values = { bufferSeconds: 60 };
    expect((await store.reloadPolicy()).bufferSeconds).toBe(60);
    expect(heard).toHaveBeenLastCalledWith(expect.objectContaining({ bufferSeconds: 60 }));
    source.values = {};
    expect((await store.reloadPolicy()).bufferSeconds).toBe(30);
    expect(await store.update({ bufferSeconds: 45 })).toMatchObject({ bufferSeconds: 45 });
  });

  it('leave out a value that fails the settings schema, with a logged reason, and apply the rest', async () => {
    const log = vi.fn();
    const store = new SettingsStore(new MemoryKeyValueStore(), log, policy({ fps: 500, upload: { mode: 's3', s3: { bucket: 'x' } }, jpegQuality: 50, nonsense: 1 }));
    const settings = await store.load();
    expect(settings).toMatchObject({ fps: 8, jpegQuality: 50, upload: { mode: 'off' } });
    expect([...store.managedKeys()]).toEqual(['jpegQuality']);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/enterprise policy values ignored \(fps: .*upload\.s3\.endpoint.*nonsense/));
  });

  it('a policy that cannot be read keeps the last one in force', async () => {
    const log = vi.fn();
    let fail = false;
    const store = new SettingsStore(new MemoryKeyValueStore(), log, { read: async () => (fail ? Promise.reject(new Error('storage gone')) : { bufferSeconds: 60 }) });
    await store.load();
    fail = true;
    expect((await store.reloadPolicy()).bufferSeconds).toBe(60);
    expect(log).toHaveBeenCalledWith('[afr] enterprise policy not read: Error: storage gone');
  });

  it.each([[null], [[1, 2]], ['upload']])('a policy that is not an object (%j) sets nothing', (raw) => {
    expect(parseManagedSettings(raw).managed.keys.size).toBe(0);
    expect(parseManagedSettings(raw).problems).toEqual(['the policy is not an object']);
  });

  describe('while Chrome’s policy service starts (storage.managed answers seconds late)', () => {
    /** A policy source that answers only when the test says so, as `storage.managed` at a browser's start. */
    function latePolicy(values: unknown) {
      let answer: () => void = () => undefined;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      return { answer, read: async () => (await answered, values) };
    }

    it('loading goes on after the wait with the policy last read, and the late answer is applied and heard', async () => {
      vi.useFakeTimers();
      try {
        const storage = new MemoryKeyValueStore();
        // An earlier start read the policy and kept it.
        await new SettingsStore(storage, () => {}, policy({ bufferSeconds: 60, upload: FLEET_UPLOAD })).load();
        const source = latePolicy({ bufferSeconds: 45, upload: FLEET_UPLOAD });
        const store = new SettingsStore(storage, () => {}, source, 250);
        const heard = vi.fn();
        store.onChange(heard);
        const loading = store.load();
        await vi.advanceTimersByTimeAsync(250);
        const started = await loading;
        expect(started.bufferSeconds).toBe(60);
        expect(started.upload.s3.bucket).toBe('fleet-runs');
        expect(store.managedKeys()).toEqual(new Set(['bufferSeconds', 'upload']));
        await expect(store.update({ bufferSeconds: 20 })).rejects.toThrow(SettingsError);
        // Where a bundle goes is decided once the policy answered.
        let settled: number | undefined;
        void store.withSettledPolicy({ ...started, bufferSeconds: 15 }).then((s) => (settled = s.bufferSeconds));
        await vi.advanceTimersByTimeAsync(1000);
        expect(settled).toBeUndefined();

        source.answer();
        await vi.waitFor(() => expect(settled).toBe(45));
        await vi.waitFor(() => expect(heard).toHaveBeenCalledTimes(1));
        expect(store.get().bufferSeconds).toBe(45);
        // Kept for the next start.
        expect(storage.data.get('managedPolicy')).toEqual({ bufferSeconds: 45, upload: FLEET_UPLOAD });
      } finally {
        vi.useRealTimers();
      }
    });

    it('on the first start there is no policy kept: the user’s settings until the policy answers, then the policy’s', async () => {
      vi.useFakeTimers();
      try {
        const storage = new MemoryKeyValueStore();
        await new SettingsStore(storage).update({ bufferSeconds: 30 });
        const source = latePolicy({ bufferSeconds: 90 });
        const store = new SettingsStore(storage, () => {}, source, 250);
        const loading = store.load();
        await vi.advanceTimersByTimeAsync(250);
        expect((await loading).bufferSeconds).toBe(30);
        source.answer();
        await vi.waitFor(() => expect(store.get().bufferSeconds).toBe(90));
      } finally {
        vi.useRealTimers();
      }
    });

    it('a late answer older than a reload that already answered is dropped, and an unchanged one is not told again', async () => {
      vi.useFakeTimers();
      try {
        const storage = new MemoryKeyValueStore();
        const slow = latePolicy({ bufferSeconds: 45 });
        let reads = 0;
        const source = { read: () => (++reads === 1 ? slow.read() : Promise.resolve({ bufferSeconds: 70 })) };
        const store = new SettingsStore(storage, () => {}, source, 250);
        const heard = vi.fn();
        store.onChange(heard);
        const loading = store.load();
        await vi.advanceTimersByTimeAsync(250);
        await loading;
        expect((await store.reloadPolicy()).bufferSeconds).toBe(70);
        slow.answer();
        await vi.advanceTimersByTimeAsync(0);
        expect(store.get().bufferSeconds).toBe(70);
        expect(heard).toHaveBeenCalledTimes(1);
      } finally {
        vi.useRealTimers();
      }
    });

    it('a policy that answers within the wait is in force from the start, with no change told', async () => {
      const store = new SettingsStore(new MemoryKeyValueStore(), () => {}, policy({ bufferSeconds: 60 }));
      const heard = vi.fn();
      store.onChange(heard);
      expect((await store.load()).bufferSeconds).toBe(60);
      expect(heard).not.toHaveBeenCalled();
    });
  });
});
