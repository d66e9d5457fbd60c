import type { BundleSummary } from '../../schemas/api';
import { h } from './dom';
import { formatBytes, formatDateTime } from './format';
import { loadBundleZip, type LoadedBundle, type ObjectUrls } from './load-zip';
import { mountViewer, type MountedViewer } from './viewer-app';
import { VIEWER_CSS } from '../bundle-format/viewer-styles';
import { errorMessage } from '../shared/error-message';
import { bundleUrlOf, fetchBundle } from './bundle-url';

/** The extension's bundle store as the page sees it (`IdbBundleStore` in the extension). */
export interface BundleSource {
  list(): Promise<BundleSummary[]>;
  read(id: string): Promise<Uint8Array | undefined>;
}

export interface ViewerPageOptions {
  source: BundleSource;
  /** `location.search` of the page: `?id=<bundleId>` opens that stored bundle, `?bundle=<https url>` the zip at that link. */
  search: string;
  /** How a `?bundle=` link is fetched (`fetch`, with `BUNDLE_FETCH_INIT`: no cookies, no redirects). */
  fetchUrl?: (url: string, init: RequestInit) => Promise<Response>;
  urls?: ObjectUrls;
}

/**
 * The extension's `viewer.html`: shows `?id=<bundleId>` from the bundle store, the zip at a
 * `?bundle=<https url>` link (a presigned GET from the team's bucket), or a zip the user drops on the
 * page or picks; without either, lists the stored bundles. Bad input is explained.
 */
export async function startViewerPage(root: HTMLElement, options: ViewerPageOptions): Promise<void> {
  const doc = root.ownerDocument;
  doc.head.appendChild(h('style', null, VIEWER_CSS));
  let shown: { viewer: MountedViewer; bundle: LoadedBundle } | null = null;

  const showBundle = async (bytes: Uint8Array | ArrayBuffer | Blob, what: string) => {
    try {
      const bundle = await loadBundleZip(bytes, options.urls);
      shown?.viewer.dispose();
      shown?.bundle.release();
      const viewer = mountViewer(root, bundle.data, bundle.media);
      shown = { viewer, bundle };
      doc.title = `${bundle.data.manifest.failure_reason} \u00B7 ${bundle.data.manifest.bundle_id} \u00B7 Agent Flight Recorder`;
    } catch (error) {
      await showOpenPanel(`Cannot show ${what}.\n${errorMessage(error)}`);
    }
  };

  const showOpenPanel = async (problem: string | null) => {
    shown?.viewer.dispose();
    shown?.bundle.release();
    shown = null;
    root.classList.remove('afr-viewer');
    const input = h('input', { attrs: { type: 'file', accept: '.zip,application/zip' }, data: { testid: 'file-input' } });
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      if (file) void showBundle(file, file.name);
    });
    const bundles = await options.source.list().catch(() => []);
    root.replaceChildren(
      h(
        'div',
        { className: 'afr-open' },
        h('h1', null, 'Agent Flight Recorder: bundle viewer'),
        problem === null ? null : h('div', { className: 'afr-error', attrs: { role: 'alert' }, data: { testid: 'error' } }, problem),
        h('label', { className: 'afr-drop', data: { testid: 'drop-zone' } }, h('p', null, 'Drop a bundle zip here, or pick one: '), input),
        h(
          'section',
          { className: 'afr-panel' },
          h('h2', null, 'Bundles in the extension ', h('span', { className: 'afr-count' }, String(bundles.length))),
          bundles.length === 0
            ? h('p', { className: 'afr-empty' }, 'No bundles stored yet.')
            : h(
                'ul',
                { className: 'afr-bundles' },
                ...bundles.map((b) =>
                  h(
                    'li',
                    null,
                    h(
                      'a',
                      { attrs: { href: `?id=${encodeURIComponent(b.id)}` } },
                      h('span', { className: 'afr-reason' }, b.reason),
                      h('span', null, b.label ?? ''),
                      h('span', { className: 'afr-url' }, b.url ?? ''),
                      h('span', { className: 'afr-count' }, `${formatDateTime(Date.parse(b.createdAt))} \u00B7 ${formatBytes(b.sizeBytes)}`),
                    ),
                  ),
                ),
              ),
        ),
      ),
    );
  };

  // A zip dropped anywhere replaces what is shown.
  doc.addEventListener('dragover', (event) => {
    event.preventDefault();
    root.querySelector('.afr-drop')?.classList.add('afr-over');
  });
  doc.addEventListener('dragleave', () => root.querySelector('.afr-drop')?.classList.remove('afr-over'));
  doc.addEventListener('drop', (event) => {
    event.preventDefault();
    const file = event.dataTransfer?.files[0];
    if (file) void showBundle(file, file.name);
  });

  const link = bundleUrlOf(options.search);
  if (link !== null) {
    const fetchUrl = options.fetchUrl ?? ((url: string, init: RequestInit) => fetch(url, init));
    let fetched: Uint8Array;
    try {
      fetched = await fetchBundle(link, fetchUrl);
    } catch (error) {
      return showOpenPanel(`Cannot open the bundle at that link.\n${errorMessage(error)}`);
    }
    return showBundle(fetched, 'the bundle at that link');
  }
  const id = new URLSearchParams(options.search).get('id');
  if (id === null) return showOpenPanel(null);
  let bytes: Uint8Array | undefined;
  try {
    bytes = await options.source.read(id);
  } catch (error) {
    return showOpenPanel(`Reading bundle "${id}" from the extension's store failed: ${String(error)}`);
  }
  if (!bytes) return showOpenPanel(`No bundle "${id}" in the extension's store (the store keeps the newest bundles only).`);
  return showBundle(bytes, `bundle ${id}`);
}
