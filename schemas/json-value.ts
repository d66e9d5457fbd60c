/** Limits of one JSON value an agent hands over (a tool's input or output, a model's response). */
export interface JsonValueLimits {
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
  /** Most characters of its JSON text (estimated while walking: keys, strings, numbers, punctuation). */
  maxChars: number;
}

/** What is wrong with a value, or null when it is plain JSON within the limits. */
export type JsonValueProblem = string | null;

const isPlainObject = (value: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * Why `value` is not plain JSON within `limits`: circular, nested too deep, too long, binary
 * (`ArrayBuffer`, typed arrays, `Blob`), or holding what JSON has no form for (functions, `undefined`
 * in an array, bigints, symbols, `NaN`, class instances such as `Date` or `Map`). Null when it is.
 * Walks without recursion and stops at the first problem, so a 10,000-deep or 50 MB value is refused
 * at once rather than overflowing the stack or being serialised first.
 */
export function jsonValueProblem(value: unknown, limits: JsonValueLimits): JsonValueProblem {
  let chars = 0;
  const open = new Set<object>();
  // Each entry: a value to visit at a depth, or the marker that its container is done (leaves `open`).
  const stack: { value: unknown; depth: number; leave?: object }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth, leave } = stack.pop()!;
    if (leave) {
      open.delete(leave);
      continue;
    }
    if (v === null || typeof v === 'boolean') chars += 5;
    else if (typeof v === 'string') chars += v.length + 2;
    else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `${v} is not a JSON number`;
      chars += 8;
    } else if (typeof v === 'object') {
      if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer || (typeof Blob !== 'undefined' && v instanceof Blob)) return 'binary data is not accepted (send text or base64 in a string)';
      if (open.has(v)) return 'circular reference';
      if (depth >= limits.maxDepth) return `nested deeper than ${limits.maxDepth} levels`;
      const array = Array.isArray(v);
      if (!array && !isPlainObject(v)) return `a ${v.constructor?.name ?? 'class instance'} is not plain JSON`;
      open.add(v);
      stack.push({ value: null, depth, leave: v });
      chars += 2;
      if (array) for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth: depth + 1 });
      else
        for (const [key, item] of Object.entries(v)) {
          if (item === undefined) continue;
          chars += key.length + 4;
          stack.push({ value: item, depth: depth + 1 });
        }
    } else if (v === undefined) {
      if (depth > 0) return 'undefined is not a JSON value';
      chars += 4;
    } else return `a ${typeof v} is not a JSON value`;
    if (chars > limits.maxChars) return `longer than ${limits.maxChars} characters of JSON`;
  }
  return null;
}
