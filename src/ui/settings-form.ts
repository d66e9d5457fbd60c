import type { z } from 'zod';
import { SettingsPatchSchema, type Settings, type SettingsPatch } from '../../schemas/settings';
import { formatList, parseList } from './list-input';
import type { FieldKind, FieldSpec } from './settings-fields';

/** What a control holds: text, or a checkbox's state. */
export type FormValue = string | boolean;
/** The form's values by field key (`bufferSeconds`, `signals.http_4xx.statuses`). */
export type FormValues = Record<string, FormValue>;
/** Messages by field key; `''` holds those that belong to no field. */
export type FieldErrors = Record<string, string[]>;

type Path = readonly PropertyKey[];

function valueAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined;
  return node;
}

/** A setting's value as its control shows it. */
export function toFormValue(value: unknown, kind: FieldKind): FormValue {
  switch (kind.type) {
    case 'boolean':
      return value === true;
    case 'list':
      return formatList(Array.isArray(value) ? (value as (string | number)[]) : [], kind.multiline);
    default:
      return value === undefined || value === null ? '' : String(value);
  }
}

/** A control's value as the setting. An empty number is NaN, so the schema reports it instead of reading 0. */
export function fromFormValue(value: FormValue, kind: FieldKind): unknown {
  const text = typeof value === 'string' ? value : '';
  switch (kind.type) {
    case 'boolean':
      return value === true;
    case 'number':
      return text.trim() === '' ? Number.NaN : Number(text.trim());
    case 'enum':
      return text;
    case 'text':
      return text.trim();
    case 'list': {
      const items = parseList(text, kind.split);
      return kind.items === 'number' ? items.map(Number) : items;
    }
  }
}

/** The form's values for `settings`. */
export function settingsToForm(settings: Settings, fields: readonly FieldSpec[]): FormValues {
  return Object.fromEntries(fields.map((f) => [f.key, toFormValue(valueAt(settings, f.path), f.kind)]));
}

// NaN !== NaN, and JSON writes it as null: compare through a form that keeps it.
const same = (a: unknown, b: unknown) => JSON.stringify(a, (_k, v: unknown) => (Number.isNaN(v) ? 'NaN' : v)) === JSON.stringify(b);

/**
 * The `configure` patch for what the form changed, and the keys of the changed fields. Signal rules
 * are patched field by field (the API merges them); other nested settings (`redaction`) are sent
 * whole, as the patch schema wants them.
 */
export function buildPatch(values: FormValues, settings: Settings, fields: readonly FieldSpec[]): { patch: Record<string, unknown>; changed: string[] } {
  const patch: Record<string, unknown> = {};
  const changed: string[] = [];
  const wholeObjects = new Set<string>();
  for (const f of fields) {
    const raw = values[f.key];
    if (raw === undefined) continue;
    const next = fromFormValue(raw, f.kind);
    if (same(next, valueAt(settings, f.path))) continue;
    changed.push(f.key);
    const [top, kind, name] = f.path as [string, string?, string?];
    if (f.path.length === 1) patch[top] = next;
    else if (top === 'signals' && kind && name) {
      const signals = (patch.signals ??= {}) as Record<string, Record<string, unknown>>;
      (signals[kind] ??= {})[name] = next;
    } else wholeObjects.add(top);
  }
  for (const top of wholeObjects) {
    // The whole object as the form has it: every field under it, at any depth, over the settings' own.
    const whole = structuredClone(settings[top as keyof Settings]) as Record<string, unknown>;
    for (const f of fields) {
      const raw = values[f.key];
      if (f.path[0] !== top || f.path.length < 2 || raw === undefined) continue;
      let node = whole;
      for (const key of f.path.slice(1, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
      node[f.path.at(-1)!] = fromFormValue(raw, f.kind);
    }
    patch[top] = whole;
  }
  return { patch, changed };
}

/** Puts each problem under the field whose path is the longest prefix of the problem's path. */
export function fieldErrors(problems: readonly { path: Path; message: string }[], values: FormValues, fields: readonly FieldSpec[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const problem of problems) {
    const owner = fields
      .filter((f) => f.path.length <= problem.path.length && f.path.every((key, i) => String(problem.path[i]) === key))
      .sort((a, b) => b.path.length - a.path.length)[0];
    let message = problem.message;
    const index = owner ? problem.path[owner.path.length] : undefined;
    if (owner && typeof index === 'number' && owner.kind.type === 'list') {
      const item = parseList(String(values[owner.key] ?? ''), owner.kind.split)[index];
      message = `item ${index + 1}${item === undefined ? '' : ` (${item})`}: ${message}`;
    } else if (!owner && problem.path.length > 0) message = `${problem.path.join('.')}: ${message}`;
    (errors[owner?.key ?? ''] ??= []).push(message);
  }
  return errors;
}

/** A patch the API will accept, or the problems by field. */
export type PatchCheck = { ok: true; patch: SettingsPatch } | { ok: false; errors: FieldErrors };

/** Validates a patch with the API's own schema, so the page shows the messages the API would give. */
export function checkPatch(patch: Record<string, unknown>, values: FormValues, fields: readonly FieldSpec[]): PatchCheck {
  const parsed = SettingsPatchSchema.safeParse(patch);
  if (parsed.success) return { ok: true, patch: parsed.data };
  return { ok: false, errors: fieldErrors(parsed.error.issues as z.core.$ZodIssue[], values, fields) };
}

/**
 * The problems of the API's error message (`invalid settings: bufferSeconds: Too small…; signals.x.statuses.0: …`),
 * by field; a message in another form goes under `''` as it is.
 */
export function serverFieldErrors(message: string, values: FormValues, fields: readonly FieldSpec[]): FieldErrors {
  const body = message.replace(/^invalid settings:\s*/, '');
  const problems = body.split('; ').map((part) => {
    const match = /^([\w.]+|\(input\)): (.+)$/s.exec(part);
    if (!match || match[1] === '(input)') return null;
    return { path: match[1]!.split('.').map((key) => (/^\d+$/.test(key) ? Number(key) : key)), message: match[2]! };
  });
  if (problems.some((p) => p === null)) return { '': [message] };
  return fieldErrors(problems as { path: Path; message: string }[], values, fields);
}
