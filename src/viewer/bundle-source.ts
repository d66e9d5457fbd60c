import type { BundleSource } from './viewer-page';

/**
 * The viewer's bundles: the list from the service worker, which also holds the bundles it kept in
 * memory while the disk was full (the store's own list if the worker cannot answer); a bundle's zip
 * from the store, read directly (same origin, no copy through a message), else from the worker.
 * @example layeredBundleSource(new IdbBundleStore(), workerBundles)
 */
export function layeredBundleSource(store: BundleSource, worker: BundleSource): BundleSource {
  return {
    list: () => worker.list().catch(() => store.list()),
    read: async (id) => (await store.read(id)) ?? worker.read(id),
  };
}
