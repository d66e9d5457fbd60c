import type { TolerantHar } from '../bundle-format/tolerant-har';
import type { ReadDiagnostics, ReadStep } from '../reads/read-schemas';

/** What a diff reads of one bundle: its steps, its network log and its diagnostics, as the reads parse them. */
export interface RunData {
  steps: readonly ReadStep[];
  /** Null when the bundle has no `network.har` (older bundles, no tab). */
  har: TolerantHar | null;
  /** Null when the capture level left it out. */
  diagnostics: ReadDiagnostics | null;
}

/** Which run a fact belongs to: the first bundle named (`a`, usually the passing run) or the second. */
export type Side = 'a' | 'b';
