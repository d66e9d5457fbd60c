import { base64ToBytes } from '../../src/shared/base64';
import { browser } from 'wxt/browser';
import { IdbBundleStore } from '../../src/platform/idb-bundle-store';
import { createOperatorClient } from '../../src/ui/operator-client';
import { layeredBundleSource } from '../../src/viewer/bundle-source';
import { startViewerPage } from '../../src/viewer/viewer-page';

// Extension page viewer.html: reads bundles straight from the extension's IndexedDB (same origin as
// the service worker), from the worker those it kept in memory (the disk was full), or from a zip
// the user drops or picks.
const call = createOperatorClient((message) => browser.runtime.sendMessage(message));
const worker = {
  list: () => call('listBundles'),
  read: (id: string) => call('exportBundle', id).then(base64ToBytes, () => undefined),
};
startViewerPage(document.getElementById('afr-root')!, { source: layeredBundleSource(new IdbBundleStore(), worker), search: location.search }).catch(
  (error: unknown) => {
    console.error('[afr] viewer failed', error);
    document.body.append(String(error));
  },
);
