import type { WxtHooks } from 'wxt';

/** The manifest WXT generated for one browser (its type comes through WXT's own hooks). */
export type GeneratedManifest = Parameters<WxtHooks['build:manifestGenerated']>[1];

/** Permissions Firefox does not know: it has no `chrome.debugger` and no offscreen documents. */
const CHROME_ONLY_PERMISSIONS = ['debugger', 'offscreen'];

/**
 * Adapts the generated manifest to Firefox (`wxt build -b firefox`, Manifest V2): no Chrome-only
 * permissions (Firefox warns about each), no `key` (Chrome's way to pin the id; Firefox ignores it with
 * a warning), and the background as a non-persistent event page, restarted like Chrome's service worker.
 */
export function adaptManifestForFirefox(manifest: GeneratedManifest): void {
  manifest.permissions = manifest.permissions?.filter((permission) => !CHROME_ONLY_PERMISSIONS.includes(permission));
  delete manifest.key;
  if (manifest.background && 'scripts' in manifest.background) manifest.background.persistent = false;
}
