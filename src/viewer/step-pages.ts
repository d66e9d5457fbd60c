import type { StepSnapshotFile } from '../../schemas/timeline';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../bundle-format/json-depth';

/*
 * The pages of the steps (`snapshots/<name>.json`), read one at a time when a step is shown: a bundle
 * of a long run holds hundreds of them, and opening it must not parse them all. Each is read once.
 */

/** A step's page, read; on failure `error` says why in words the viewer shows. */
export type StepPageRead = { ok: true; file: StepSnapshotFile } | { ok: false; error: string };

/** Reads the file at a zip path (`snapshots/page-003.json`): from the zip in the extension, embedded in `viewer.html`. */
export type StepPageReader = (path: string) => StepPageRead;

/** The folder of the step snapshots in the zip, with its trailing slash. */
const SNAPSHOTS_DIR = 'snapshots/';
/** One file directly inside `snapshots/`: no folders, no `..`, nothing but a plain file name. */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * The zip path a step names in `steps.json` (`snapshot`), or null for a name that points anywhere but
 * at a file of `snapshots/`. Steps may name the file by its path (`snapshots/page-003.json`) or by the
 * name inside the folder (`page-003.json`, `page-003`).
 * @example stepPagePath('page-003') // 'snapshots/page-003.json'
 */
export function stepPagePath(name: string): string | null {
  const inside = name.startsWith(SNAPSHOTS_DIR) ? name.slice(SNAPSHOTS_DIR.length) : name;
  if (!PLAIN_NAME.test(inside) || inside.includes('..')) return null;
  return `${SNAPSHOTS_DIR}${inside.endsWith('.json') ? inside : `${inside}.json`}`;
}

/** Reads step pages on demand through `read`, each at most once. */
export function cachedStepPages(read: StepPageReader): (name: string) => StepPageRead {
  const cache = new Map<string, StepPageRead>();
  return (name) => {
    const path = stepPagePath(name);
    if (path === null) return { ok: false, error: `"${name}" is not a file of ${SNAPSHOTS_DIR}` };
    let result = cache.get(path);
    if (!result) {
      result = read(path);
      cache.set(path, result);
    }
    return result;
  };
}

/**
 * Step pages embedded in `viewer.html` as the JSON text of each file, by zip path: parsed when first
 * shown. The writer checked them against the schema; the standalone page carries no zod, but still
 * bounds the nesting (the tree renders recursively) in case the page was edited.
 */
export function embeddedStepPages(texts: Readonly<Record<string, string>> | undefined): StepPageReader {
  return (path) => {
    const text = texts && Object.hasOwn(texts, path) ? texts[path] : undefined;
    if (typeof text !== 'string') return { ok: false, error: `${path} is not in this viewer.html` };
    if (nestsDeeperThan(text)) return { ok: false, error: `${path} is nested more than ${MAX_JSON_DEPTH} levels deep` };
    try {
      return { ok: true, file: JSON.parse(text) as StepSnapshotFile };
    } catch (error) {
      return { ok: false, error: `${path} is not valid JSON (${String(error)})` };
    }
  };
}
