import { bytesToBase64 } from '../shared/base64';

/**
 * Saves a bundle zip as `<downloads>/agent-flight-recorder/<bundleId>.zip`. A service worker has no
 * `URL.createObjectURL`, so the zip travels as a data URL.
 */
export async function downloadBundle(bundleId: string, zip: Uint8Array): Promise<number> {
  return chrome.downloads.download({
    url: `data:application/zip;base64,${bytesToBase64(zip)}`,
    filename: `agent-flight-recorder/${bundleId}.zip`,
    conflictAction: 'uniquify',
    saveAs: false,
  });
}
