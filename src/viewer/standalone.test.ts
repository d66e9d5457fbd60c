// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { EMBEDDED_DATA_ID, VIEWER_ROOT_ID, buildViewerHtml, viewerCsp } from '../bundle-format/viewer-html';
import { makeBundleData } from '../../test/fakes/viewer-bundle';
import { makeStepPages, makeTimelineBundleData } from '../../test/fakes/viewer-step-pages';

const mountPage = async (html: string) => {
  const page = new DOMParser().parseFromString(html, 'text/html');
  document.body.replaceChildren(...[...page.body.childNodes].map((n) => document.importNode(n, true)));
  vi.resetModules();
  await import('./standalone');
};

describe('standalone viewer entry', () => {
  it('renders the embedded bundle with frames and the clip by relative path', async () => {
    const data = makeBundleData();
    const page = new DOMParser().parseFromString(buildViewerHtml('', data, await viewerCsp('')), 'text/html');
    document.body.replaceChildren(...[...page.body.childNodes].map((n) => document.importNode(n, true)));
    vi.resetModules();
    await import('./standalone');
    expect(document.title).toBe('assertion_failed \u00B7 afr-20261122T120000Z-abcdef \u00B7 Agent Flight Recorder');
    // It opens at the failure, as the extension's viewer does: the screen at the failure is frame 4.
    expect(document.querySelector('[data-testid="frame-image"]')!.getAttribute('src')).toBe('frames/frame_0004.jpeg');
    expect(document.querySelector('[data-testid="clip"]')!.getAttribute('src')).toBe('failure.mp4');
    expect(document.querySelectorAll(`#${VIEWER_ROOT_ID} [data-testid="timeline"] > li`).length).toBe(data.steps.steps.length);
  });

  it('shows a step\u2019s page from the text embedded for it, parsed when the step is selected', async () => {
    const texts = Object.fromEntries([...makeStepPages()].map(([path, file]) => [path, JSON.stringify(file)]));
    const parse = vi.spyOn(JSON, 'parse');
    await mountPage(buildViewerHtml('', { ...makeTimelineBundleData(), step_snapshots: texts }, await viewerCsp('')));
    const parsedAtOpen = parse.mock.calls.length;
    expect(parsedAtOpen).toBe(1); // the bundle data; the pages inside it are still text
    document.querySelector<HTMLElement>('[data-testid="timeline"] > li[data-seq="5"] button')!.click();
    expect(parse.mock.calls.length).toBe(parsedAtOpen + 1);
    expect(document.querySelector('[data-testid="target-node"]')!.textContent).toContain('"Place order"');
  });

  it('explains a page whose data cannot be read', async () => {
    document.body.innerHTML = `<div id="${VIEWER_ROOT_ID}"></div><script type="application/json" id="${EMBEDDED_DATA_ID}">{oops</script>`;
    vi.resetModules();
    await import('./standalone');
    expect(document.querySelector('.afr-error')!.textContent).toContain('carries no readable bundle data');
  });
});
