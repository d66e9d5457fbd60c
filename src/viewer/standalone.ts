import type { BundleData } from './bundle-data';
import { h } from './dom';
import { EMBEDDED_DATA_ID, VIEWER_ROOT_ID } from './standalone-html';
import { mountViewer } from './viewer-app';

// Entry of `viewer.html` inside a bundle zip, bundled into one IIFE at build time
// (src/platform/build/viewer-html-plugin.ts). It runs from file://, where fetch() of the bundle's own
// files is blocked, so the JSON comes embedded in the page and media by relative path.

/** Only the bundle's own frame files, by relative path. */
const FRAME_NAME = /^frames\/frame_\d{4,}\.jpeg$/;

function start(): void {
  const root = document.getElementById(VIEWER_ROOT_ID) ?? document.body;
  let data: BundleData;
  try {
    data = JSON.parse(document.getElementById(EMBEDDED_DATA_ID)?.textContent ?? '') as BundleData;
  } catch (error) {
    root.replaceChildren(h('p', { className: 'afr-error' }, `This viewer.html carries no readable bundle data (${String(error)}).`));
    return;
  }
  // The data was validated against the schemas when the bundle was written; zod stays out of this page.
  document.title = `${data.manifest.failure_reason} \u00B7 ${data.manifest.bundle_id} \u00B7 Agent Flight Recorder`;
  mountViewer(root, data, {
    frameUrl: (name) => (FRAME_NAME.test(name) ? name : null),
    clipUrl: data.manifest.clip ? 'failure.mp4' : null,
  });
}

start();
