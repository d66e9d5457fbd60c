import { CLIP_FILE, isFrameFileName } from '../bundle-format/file-names';
import { VIEWER_ROOT_ID, readEmbeddedData, type ViewerData } from '../bundle-format/viewer-html';
import { h } from './dom';
import { cachedStepPages, embeddedStepPages } from './step-pages';
import { mountViewer } from './viewer-app';

// Entry of `viewer.html` inside a bundle zip, bundled into one IIFE at build time
// (scripts/build/viewer-html-plugin.ts). It runs from file://, where fetch() of the bundle's own
// files is blocked, so the JSON comes embedded in the page and media by relative path.

function start(): void {
  const root = document.getElementById(VIEWER_ROOT_ID) ?? document.body;
  let data: ViewerData;
  try {
    data = readEmbeddedData(document);
  } catch (error) {
    root.replaceChildren(h('p', { className: 'afr-error' }, `This viewer.html carries no readable bundle data (${String(error)}).`));
    return;
  }
  // The data was validated against the schemas when the bundle was written; zod stays out of this page.
  document.title = `${data.manifest.failure_reason} \u00B7 ${data.manifest.bundle_id} \u00B7 Agent Flight Recorder`;
  mountViewer(root, data, {
    // Only the bundle's own frame files, by relative path.
    frameUrl: (name) => (isFrameFileName(name) ? name : null),
    clipUrl: data.manifest.clip ? CLIP_FILE : null,
    // The steps' pages travel inside the page as text, parsed when their step is shown.
    stepPage: cachedStepPages(embeddedStepPages(data.step_snapshots)),
  });
}

start();
