import { checksumsOf } from './checksums';
import type { ObjectPut } from './ports';

/** The small object "Test connection" writes (and, where the target can, deletes) at `key`. */
export async function probeObject(key: string, now = new Date()): Promise<ObjectPut> {
  const body = new TextEncoder().encode(`Agent Flight Recorder connection test ${now.toISOString()}\n`);
  return { key, bundleId: 'connection-test', kind: 'probe', body, sums: await checksumsOf(body), contentType: 'text/plain' };
}
