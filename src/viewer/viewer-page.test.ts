// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import type { BundleSummary } from '../../schemas/api';
import { makeBundleZip } from '../../test/fakes/viewer-bundle';
import { startViewerPage, type BundleSource } from './viewer-page';

const summary: BundleSummary = {
  id: 'afr-20261122T120000Z-abcdef',
  createdAt: '2026-11-22T12:00:01.000Z',
  reason: 'assertion_failed',
  label: 'order confirmation never appeared',
  tabId: 7,
  url: 'https://shop.test/checkout',
  sizeBytes: 4096,
  downloadId: null,
};

const urls = { create: () => 'blob:test/x', revoke: () => undefined };

async function source(): Promise<BundleSource> {
  const zip = await makeBundleZip();
  return { list: async () => [summary], read: async (id) => (id === summary.id ? zip : undefined) };
}

describe('viewer page', () => {
  let root: HTMLElement;
  beforeEach(() => {
    document.head.replaceChildren();
    root = document.createElement('div');
    document.body.replaceChildren(root);
  });

  it('opens ?id=<bundleId> from the bundle store', async () => {
    await startViewerPage(root, { source: await source(), search: `?id=${summary.id}`, urls });
    expect(document.title).toBe('assertion_failed \u00B7 afr-20261122T120000Z-abcdef \u00B7 Agent Flight Recorder');
    expect(root.querySelectorAll('[data-testid="timeline"] > li').length).toBe(6);
    expect(document.head.querySelector('style')!.textContent).toContain('.afr-viewer');
  });

  it('without an id, lists the stored bundles and offers a file input', async () => {
    await startViewerPage(root, { source: await source(), search: '', urls });
    const link = root.querySelector<HTMLAnchorElement>('.afr-bundles a')!;
    expect(link.getAttribute('href')).toBe(`?id=${summary.id}`);
    expect(link.textContent).toContain('order confirmation never appeared');
    expect(root.querySelector('[data-testid="file-input"]')).not.toBeNull();
    expect(root.querySelector('[data-testid="error"]')).toBeNull();
  });

  it('says so when the id is not in the store', async () => {
    await startViewerPage(root, { source: await source(), search: '?id=afr-gone', urls });
    expect(root.querySelector('[data-testid="error"]')!.textContent).toContain('No bundle "afr-gone"');
  });

  it('explains why a stored zip is not a valid bundle', async () => {
    const broken: BundleSource = { list: async () => [], read: async () => new TextEncoder().encode('not a zip') };
    await startViewerPage(root, { source: broken, search: '?id=x', urls });
    expect(root.querySelector('[data-testid="error"]')!.textContent).toMatch(/Cannot show bundle x\.\s+Not a zip file/);
  });

  it('opens the zip at a ?bundle= link, its presigned query string kept whole', async () => {
    const zip = await makeBundleZip();
    const link = 'https://runs.example.com/fleet/b1.zip?X-Amz-Signature=abc&X-Amz-Date=20261125T090000Z';
    const asked: string[] = [];
    const fetchUrl = async (url: string) => {
      asked.push(url);
      return new Response(zip as Uint8Array<ArrayBuffer>);
    };
    await startViewerPage(root, { source: await source(), search: `?bundle=${link}`, urls, fetchUrl });
    expect(asked).toEqual([link]);
    expect(root.querySelectorAll('[data-testid="timeline"] > li').length).toBe(6);
  });

  it('explains a link that cannot be opened', async () => {
    const fetchUrl = async () => new Response('', { status: 403 });
    await startViewerPage(root, { source: await source(), search: '?bundle=https://runs.example.com/b1.zip', urls, fetchUrl });
    expect(root.querySelector('[data-testid="error"]')!.textContent).toMatch(/Cannot open the bundle at that link\.\s+runs\.example\.com answered HTTP 403 \(a presigned link expires/);
  });
});
