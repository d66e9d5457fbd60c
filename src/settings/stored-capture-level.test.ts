import { describe, expect, it } from 'vitest';
import { recordsFramesFromStoredSettings } from './stored-capture-level';
import { SETTINGS_SCHEMA_VERSION } from './migrations';

describe('recordsFramesFromStoredSettings', () => {
  it.each([
    { label: 'nothing stored yet (the default level)', stored: undefined, frames: true },
    { label: 'full', stored: { schemaVersion: SETTINGS_SCHEMA_VERSION, settings: { captureLevel: 'full' } }, frames: true },
    { label: 'screenshots', stored: { schemaVersion: SETTINGS_SCHEMA_VERSION, settings: { captureLevel: 'screenshots' } }, frames: true },
    { label: 'metadata', stored: { schemaVersion: SETTINGS_SCHEMA_VERSION, settings: { captureLevel: 'metadata' } }, frames: false },
    { label: 'off', stored: { schemaVersion: SETTINGS_SCHEMA_VERSION, settings: { captureLevel: 'off' } }, frames: false },
    { label: 'an unversioned value of the first schema', stored: { captureLevel: 'metadata' }, frames: false },
    { label: 'a level that is not one', stored: { schemaVersion: SETTINGS_SCHEMA_VERSION, settings: { captureLevel: 'everything' } }, frames: true },
    { label: 'junk', stored: 'full', frames: true },
  ])('$label', ({ stored, frames }) => {
    expect(recordsFramesFromStoredSettings(stored)).toBe(frames);
  });
});
