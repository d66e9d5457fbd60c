import type { BundleReader } from '../reads/open-bundle';
import type { RunData } from './run-data';

/**
 * What a diff needs of an opened bundle. Throws the reads' `BundleReadError` when `steps.json` is
 * missing or a file does not parse: without its steps a run cannot be lined up.
 */
export async function readRun(reader: BundleReader): Promise<RunData> {
  const [steps, har, diagnostics] = await Promise.all([reader.steps(), reader.har(), reader.diagnostics()]);
  return { steps, har, diagnostics };
}
