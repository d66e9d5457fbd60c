import { describe, expect, it } from 'vitest';
import { layeredBundleSource } from './bundle-source';
import type { BundleSummary } from '../../schemas/api';

const row = (id: string): BundleSummary => ({
  id,
  createdAt: '2026-11-23T10:00:00.000Z',
  reason: 'page_exception',
  label: null,
  tabId: 7,
  url: 'https://shop.test/',
  sizeBytes: 1,
  downloadId: null,
});

describe('layeredBundleSource', () => {
  const store = { list: async () => [row('stored')], read: async (id: string) => (id === 'stored' ? new Uint8Array([1]) : undefined) };

  it("lists the worker's bundles, those it keeps in memory included, and reads each where it is", async () => {
    const worker = {
      list: async () => [row('in-memory'), row('stored')],
      read: async (id: string) => (id === 'in-memory' ? new Uint8Array([2]) : undefined),
    };
    const source = layeredBundleSource(store, worker);
    expect((await source.list()).map((b) => b.id)).toEqual(['in-memory', 'stored']);
    expect(await source.read('stored')).toEqual(new Uint8Array([1]));
    expect(await source.read('in-memory')).toEqual(new Uint8Array([2]));
    expect(await source.read('gone')).toBeUndefined();
  });

  it("lists the store's bundles when the worker cannot answer", async () => {
    const worker = { list: () => Promise.reject(new Error('Could not establish connection')), read: async () => undefined };
    expect((await layeredBundleSource(store, worker).list()).map((b) => b.id)).toEqual(['stored']);
  });
});
