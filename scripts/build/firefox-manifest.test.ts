import { describe, expect, it } from 'vitest';
import { adaptManifestForFirefox, type GeneratedManifest } from './firefox-manifest';

function generated(): GeneratedManifest {
  return {
    manifest_version: 2,
    name: 'Agent Flight Recorder',
    version: '0.1.0',
    key: 'MIIB…',
    permissions: ['tabs', 'storage', 'debugger', 'offscreen', 'webRequest', '<all_urls>'],
    background: { scripts: ['background.js'] },
  };
}

describe('adaptManifestForFirefox', () => {
  it('drops the permissions Firefox lacks and keeps the others in order', () => {
    const manifest = generated();
    adaptManifestForFirefox(manifest);
    expect(manifest.permissions).toEqual(['tabs', 'storage', 'webRequest', '<all_urls>']);
  });

  it("drops Chrome's id key and makes the background an event page", () => {
    const manifest = generated();
    adaptManifestForFirefox(manifest);
    expect(manifest).not.toHaveProperty('key');
    expect(manifest.background).toEqual({ scripts: ['background.js'], persistent: false });
  });
});
