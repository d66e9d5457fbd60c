import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JSON_SCHEMA_DIR, renderJsonSchemas } from './generate';
import { PageMessageSchema } from './page-protocol';
import { SettingsSchema, DEFAULT_SETTINGS } from './settings';
import { ToBackgroundMessageSchema } from './messages';

describe('generated JSON Schema', () => {
  it('is in sync with the zod sources (run `npm run schemas` after changing a schema)', () => {
    const rendered = renderJsonSchemas();
    const onDisk = readdirSync(JSON_SCHEMA_DIR).filter((f) => f.endsWith('.schema.json')).sort();
    expect(onDisk).toEqual(Object.keys(rendered).sort());
    for (const [file, text] of Object.entries(rendered)) {
      expect(readFileSync(path.join(JSON_SCHEMA_DIR, file), 'utf8'), file).toBe(text);
    }
  });
});

describe('page protocol schema', () => {
  it.each([
    [{ source: 'agent-flight-recorder', type: 'fail', reason: 'assertion_failed' }, true],
    [{ source: 'agent-flight-recorder', type: 'fail', reason: 'x', label: 'cart total wrong' }, true],
    [{ source: 'agent-flight-recorder', type: 'step', action: 'click buy', outcome: 'ok' }, true],
    [{ source: 'agent-flight-recorder', type: 'fail' }, false],
    [{ source: 'agent-flight-recorder', type: 'fail', reason: '' }, false],
    [{ source: 'agent-flight-recorder', type: 'fail', reason: 'x'.repeat(1025) }, false],
    [{ source: 'agent-flight-recorder', type: 'step', action: 'a'.repeat(10_000), target: 'b'.repeat(10_000) }, false],
    [{ source: 'agent-flight-recorder', type: 'step', action: 'a', outcome: 'maybe' }, false],
    [{ source: 'agent-flight-recorder', type: 'fail', reason: 'x', extra: 1 }, false],
    [{ source: 'other', type: 'fail', reason: 'x' }, false],
    ['fail', false],
    [null, false],
  ])('%j → %s', (message, valid) => {
    expect(PageMessageSchema.safeParse(message).success).toBe(valid);
  });
});

describe('settings and message schemas', () => {
  it('defaults are valid and round-trip', () => {
    expect(SettingsSchema.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
  });

  it('checks content messages by type and step kind', () => {
    const base = { type: 'step/observed', ts: 1, url: 'https://a.test/', kind: 'input', action: 'type', target: null, value: null, value_redacted: true, outcome: null, label: null };
    expect(ToBackgroundMessageSchema.safeParse(base).success).toBe(true);
    expect(ToBackgroundMessageSchema.safeParse({ ...base, kind: 'teleport' }).success).toBe(false);
    expect(ToBackgroundMessageSchema.safeParse({ ...base, type: 'step/unknown' }).success).toBe(false);
  });
});

describe('zod mini schemas in classic ones', () => {
  it('nest, defaults included', () => {
    expect(SettingsSchema.parse({}).captureLevel).toBe('full');
    expect(SettingsSchema.safeParse({ captureLevel: 'everything' }).error?.issues[0]?.message).toMatch(/^Invalid option: expected one of/);
    expect(ToBackgroundMessageSchema.safeParse({ type: 'agent/command', ts: 1, url: 'https://a.test/', command: { kind: 'mark', label: '' } }).success).toBe(false);
  });
});
