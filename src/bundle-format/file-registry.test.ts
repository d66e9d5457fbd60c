import { describe, expect, it } from 'vitest';
import { BUNDLE_FILE_SCHEMAS } from '../../schemas/registry';
import { BUNDLE_JSON_FILES, isBundleFileName } from './file-registry';

describe('the registry of bundle files', () => {
  it('names the JSON files, with the schemas published for them', () => {
    const files = Object.values(BUNDLE_JSON_FILES);
    expect(files.map((f) => f.name).sort()).toEqual(Object.keys(BUNDLE_FILE_SCHEMAS).sort());
    for (const file of files) expect(file.schema).toBe(BUNDLE_FILE_SCHEMAS[file.name]);
    expect(files.filter((f) => f.required).map((f) => f.name)).toEqual(['manifest.json', 'steps.json']);
  });

  it.each([
    ['manifest.json', true],
    ['diagnostics.json', true],
    ['frames/frame_0001.jpeg', true],
    ['failure.mp4', true],
    ['viewer.html', true],
    ['summary.md', true],
    ['frames/cover.png', false],
    ['notes.txt', false],
    ['nested/manifest.json', false],
  ])('%s has a place in a bundle: %s', (name, expected) => {
    expect(isBundleFileName(name)).toBe(expected);
  });
});
