// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { readFieldValue } from './field-value';
import { BUILT_IN_MASKER } from './mask-text';
import { createRedactionCounts } from './redaction-counts';

function field(html: string, value?: string): Element {
  document.body.innerHTML = html;
  const el = document.body.firstElementChild!;
  if (value !== undefined) (el as HTMLInputElement).value = value;
  return el;
}

describe('readFieldValue', () => {
  it('withholds sensitive values and counts them', () => {
    const counts = createRedactionCounts();
    expect(readFieldValue(field('<input type="password">', 'hunter2'), counts, BUILT_IN_MASKER)).toEqual({
      value: null,
      value_redacted: true,
      redaction_kind: 'password',
    });
    expect(readFieldValue(field('<input type="hidden" value="csrf-abc">'), counts, BUILT_IN_MASKER)?.redaction_kind).toBe('hidden');
    expect(counts.fields).toMatchObject({ password: 1, hidden: 1 });
  });

  it('masks personal data in plain text fields', () => {
    const counts = createRedactionCounts();
    const out = readFieldValue(field('<input name="note">', 'ring 415-555-0134 or a@b.io'), counts, BUILT_IN_MASKER);
    expect(out).toEqual({ value: 'ring [phone] or [email]', value_redacted: false });
    expect(counts.text).toMatchObject({ phone: 1, email: 1 });
  });

  it('reads textarea and select values', () => {
    const counts = createRedactionCounts();
    expect(readFieldValue(field('<textarea name="c"></textarea>', 'hello'), counts, BUILT_IN_MASKER)?.value).toBe('hello');
    const select = field('<select name="size"><option value="s">S</option><option value="m" selected>M</option></select>');
    expect(readFieldValue(select, counts, BUILT_IN_MASKER)?.value).toBe('m');
  });

  it('caps long values', () => {
    const out = readFieldValue(field('<input name="q">', 'x'.repeat(5000)), createRedactionCounts(), BUILT_IN_MASKER, 100);
    expect(out?.value).toHaveLength(100);
  });

  it.each(['<input type="checkbox" checked>', '<input type="submit" value="Go">', '<input type="file">', '<div></div>'])(
    'has no value for %s',
    (html) => {
      expect(readFieldValue(field(html), createRedactionCounts(), BUILT_IN_MASKER)).toBeNull();
    },
  );
});
