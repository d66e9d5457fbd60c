/**
 * How deep a bundle's JSON may nest. The snapshot is the deepest file: the recorder keeps 100 levels of
 * the DOM (`SNAPSHOT_DEFAULTS.maxDepth`), two JSON levels each (the node, its `children`). Past the bound,
 * zod, ajv and the viewer's tree, which all recurse, could run out of stack on a hostile file.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * Whether the JSON text nests objects and arrays deeper than `max`, found by one scan of the text before
 * any parser recurses into it. Brackets inside strings do not count. Malformed JSON is left to the parser.
 */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
