import type { BundleSink, SinkContext, StoredBundle } from './ports';

/**
 * Hands a stored bundle to each sink in turn. The bundle is stored already: a sink that fails is
 * logged, and the next one still gets it.
 */
export async function runSinks(sinks: readonly BundleSink[], bundle: StoredBundle, context: SinkContext, log: (message: string) => void): Promise<void> {
  for (const sink of sinks) {
    try {
      await sink.afterStore(bundle, context);
    } catch (error) {
      log(`[afr] ${sink.name} of ${bundle.summary.id} failed: ${String(error)}`);
    }
  }
}
