/*
 * The shape of a JSON answer, to see schema drift between two runs: each field's path and the type of
 * its value (`items[].price: number`). Values do not count (they differ on every run, and masked ones
 * are masks): a field added, removed or of another type does.
 */

/** Path → type: `string`, `number`, `boolean`, `null`, `object`, `array`; array elements under `[]`. */
export type JsonShape = ReadonlyMap<string, string>;

/** How deep the shape goes, and how many fields it lists: a bigger answer is compared on its first ones. */
const MAX_DEPTH = 8;
const MAX_FIELDS = 500;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The shape of a JSON text; null when it is not JSON (an HTML error page, a masked or omitted body). */
export function jsonShape(text: string): JsonShape | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const shape = new Map<string, string>();
  const walk = (node: unknown, path: string, depth: number) => {
    if (shape.size >= MAX_FIELDS) return;
    const type = typeOf(node);
    const seen = shape.get(path);
    // Elements of one array may differ (a null among numbers): the path lists each type once.
    shape.set(path, seen === undefined || seen === type ? type : [...new Set([...seen.split('|'), type])].sort().join('|'));
    if (depth >= MAX_DEPTH) return;
    if (Array.isArray(node)) for (const element of node) walk(element, `${path}[]`, depth + 1);
    else if (node !== null && typeof node === 'object') for (const [key, child] of Object.entries(node)) walk(child, path === '' ? key : `${path}.${key}`, depth + 1);
  };
  walk(value, '', 0);
  return shape;
}

/** One field that differs between two shapes. */
export type ShapeChange =
  | { change: 'added'; path: string; type: string }
  | { change: 'removed'; path: string; type: string }
  | { change: 'type'; path: string; from: string; to: string };

/** Whether `path` is a field inside `parent` (every path is inside the root, ''). */
const isUnder = (path: string, parent: string) => (parent === '' ? path !== '' : path.startsWith(`${parent}.`) || path.startsWith(`${parent}[]`));

/** What changed from `from` to `to`, in path order; the root is named `(body)`. */
export function compareShapes(from: JsonShape, to: JsonShape): ShapeChange[] {
  const changes: ShapeChange[] = [];
  const name = (path: string) => (path === '' ? '(body)' : path);
  for (const path of [...new Set([...from.keys(), ...to.keys()])].sort()) {
    const a = from.get(path);
    const b = to.get(path);
    if (a === b) continue;
    // A field under one that was added or removed is said by its parent alone.
    const parent = [...from.keys(), ...to.keys()].some((p) => p !== path && isUnder(path, p) && from.get(p) !== to.get(p));
    if (parent) continue;
    if (a === undefined) changes.push({ change: 'added', path: name(path), type: b! });
    else if (b === undefined) changes.push({ change: 'removed', path: name(path), type: a });
    else changes.push({ change: 'type', path: name(path), from: a, to: b });
  }
  return changes;
}
