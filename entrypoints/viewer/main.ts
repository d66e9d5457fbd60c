import { IdbBundleStore } from '../../src/platform/idb-bundle-store';
import { startViewerPage } from '../../src/viewer/viewer-page';

// Extension page viewer.html: reads bundles straight from the extension's IndexedDB (same origin as
// the service worker), or from a zip the user drops or picks.
startViewerPage(document.getElementById('afr-root')!, { source: new IdbBundleStore(), search: location.search }).catch((error: unknown) => {
  console.error('[afr] viewer failed', error);
  document.body.append(String(error));
});
