import { describe, expect, it } from 'vitest';
import { MANIFEST_VERSION, ManifestSchema } from '../../schemas/manifest';
import { makeBundleData, manifestV1, V1_REDACTION_RULES } from '../../test/fakes/viewer-bundle';
import { migrate_1_to_2, modernizeManifest } from './modernize-manifest';

describe('migrate_1_to_2', () => {
  const v1 = manifestV1(makeBundleData().manifest);

  it('keeps every setting but counts the redaction rules instead of carrying them', () => {
    const v2 = migrate_1_to_2(v1);
    expect(v2.version).toBe(2);
    expect((v2.settings as Record<string, unknown>).redaction).toEqual({ selectors: 2, fieldNamePatterns: 1, textPatterns: 1 });
    expect((v2.settings as Record<string, unknown>).bufferSeconds).toBe((v1.settings as Record<string, unknown>).bufferSeconds);
    const text = JSON.stringify(v2);
    for (const rule of Object.values(V1_REDACTION_RULES).flat()) expect(text).not.toContain(JSON.stringify(rule).slice(1, -1));
  });

  it('reads as a current manifest', () => {
    expect(ManifestSchema.parse(modernizeManifest(v1))).toEqual({ ...makeBundleData().manifest, settings: expect.objectContaining({ redaction: { selectors: 2, fieldNamePatterns: 1, textPatterns: 1 } }) });
  });

  it('counts rules a version 1 manifest did not have as none, and leaves what is not a list to the schema', () => {
    const settings = v1.settings as Record<string, unknown>;
    expect(migrate_1_to_2({ ...v1, settings: { ...settings, redaction: undefined } }).settings).toMatchObject({ redaction: { selectors: 0, fieldNamePatterns: 0, textPatterns: 0 } });
    const odd = migrate_1_to_2({ ...v1, settings: { ...settings, redaction: { selectors: 'all' } } });
    expect(ManifestSchema.safeParse(odd).success).toBe(false);
    expect(migrate_1_to_2({ version: 1 })).toEqual({ version: 2 });
  });
});

describe('modernizeManifest', () => {
  it.each([
    ['the current version', makeBundleData().manifest],
    ['a newer version', { version: MANIFEST_VERSION + 1, settings: { redaction: { selectors: ['#x'] } } }],
    ['an unknown version', { version: 0 }],
    ['a version that is not a number', { version: '1' }],
    ['not an object', [1, 2]],
    ['null', null],
  ])('leaves %s as it is', (_what, json) => {
    expect(modernizeManifest(json)).toBe(json);
  });
});
