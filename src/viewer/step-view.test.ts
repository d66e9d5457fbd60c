// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BundleData } from '../bundle-format/bundle-data';
import type { BundleMedia } from './bundle-media';
import { cachedStepPages, embeddedStepPages, type StepPageRead } from './step-pages';
import { mountViewer, type MountedViewer } from './viewer-app';
import { HOSTILE } from '../../test/fakes/viewer-bundle';
import { BUTTON_RECT, CLICK_POINT, makeStepPages, makeTimelineBundleData } from '../../test/fakes/viewer-step-pages';

const $ = (selector: string) => document.querySelector<HTMLElement>(selector);
const press = (key: string, target: EventTarget = document.body) => {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
  target.dispatchEvent(event);
  return event;
};
const stepItem = (seq: number) => $(`[data-testid="timeline"] > li[data-seq="${seq}"]`)!;
const selectSeq = (seq: number) => stepItem(seq).querySelector('button')!.click();
const caption = () => $('[data-testid="page-caption"]')!.textContent;
const counter = () => $('[data-testid="frame-counter"]')!.textContent;
const selectedSeqs = () => [...document.querySelectorAll<HTMLElement>('[data-testid="timeline"] > li.afr-selected')].map((li) => Number(li.dataset.seq));

describe('the page at each step', () => {
  let root: HTMLElement;
  let viewer: MountedViewer;
  let reads: string[];

  beforeEach(() => {
    root = document.createElement('div');
    document.body.replaceChildren(root);
    reads = [];
  });
  afterEach(() => viewer?.dispose());

  const mount = (data: BundleData = makeTimelineBundleData(), pages = makeStepPages()) => {
    const read = (path: string): StepPageRead => {
      reads.push(path);
      const file = pages.get(path);
      return file ? { ok: true, file } : { ok: false, error: `${path}: missing from the bundle` };
    };
    const media: BundleMedia = { frameUrl: (name) => `blob:test/${name}`, clipUrl: null, stepPage: cachedStepPages(read) };
    viewer = mountViewer(root, data, media, { requestFrame: () => undefined });
  };

  it('opens on the page at the failure, its step selected, and reads no step page until another step is selected', () => {
    mount();
    expect(caption()).toBe('at the failure (step #6: failure: assertion_failed)');
    expect(selectedSeqs()).toEqual([6]);
    expect($('[data-testid="snapshot"] [data-testid="redacted"]')!.textContent).toBe('redacted: password');
    expect(reads).toEqual([]);
  });

  it('selecting a step shows the DOM as it was then, its target marked and open, and the frame nearest it', () => {
    mount();
    selectSeq(5);
    expect(caption()).toBe('at step #5: click button "Place order" #place-order');
    const target = $('[data-testid="snapshot"] [data-testid="target-node"]')!;
    expect(target.textContent).toBe('target<button>button"Place order"id="place-order"Place order');
    expect(target.closest('details:not([open])')).toBeNull();
    expect($('[data-testid="snapshot"]')!.textContent).toContain('value="Jane"');
    expect(counter()).toBe('frame 3 / 4');
    expect(selectedSeqs()).toEqual([5]);
    expect(stepItem(5).querySelector('button')!.getAttribute('aria-current')).toBe('step');
    // An earlier step shows the page before the name was typed.
    selectSeq(3);
    expect($('[data-testid="snapshot"] [data-testid="target-node"]')!.textContent).toContain('"Name"');
    expect($('[data-testid="snapshot"]')!.textContent).not.toContain('value="Jane"');
    expect(reads).toEqual(['snapshots/page-003.json', 'snapshots/page-002.json']);
    selectSeq(5);
    expect(reads).toHaveLength(2);
  });

  it('renders page text in a step page and its changes as text, never as markup', () => {
    mount();
    selectSeq(5);
    expect($('[data-testid="snapshot"]')!.textContent).toContain(HOSTILE);
    $('[data-testid="tab-changes"]')!.click();
    expect($('[data-testid="changes"]')!.textContent).toContain(HOSTILE);
    expect(root.querySelector('img[src="x"]')).toBeNull();
  });

  it('falls back to the page at the failure for a step without a page of its own, and says why', () => {
    mount();
    selectSeq(4);
    expect($('[data-testid="snapshot"] .afr-note')!.textContent).toContain('This step has no page of its own');
    expect($('[data-testid="snapshot"]')!.textContent).toContain('<card-widget>');
    expect($('[data-testid="snapshot"] [data-testid="target-node"]')).toBeNull();
  });

  it('shows the page at the failure for the failure\u2019s own step', () => {
    mount();
    selectSeq(6);
    expect(caption()).toBe('at the failure (step #6: failure: assertion_failed)');
    expect($('[data-testid="snapshot"] .afr-note')).toBeNull();
    expect($('[data-testid="snapshot"] [data-testid="redacted"]')!.textContent).toBe('redacted: password');
  });

  it('says when a step\u2019s page was taken late, and not when it was on time', () => {
    const data = makeTimelineBundleData();
    const pages = makeStepPages();
    const file = pages.get('snapshots/page-003.json')!;
    pages.set('snapshots/page-003.json', { ...file, snapshot: { ...file.snapshot, at: data.steps.steps[4]!.ts + 2600 } });
    mount(data, pages);
    selectSeq(5);
    expect($('[data-testid="snapshot"] .afr-note')!.textContent).toBe('This page was taken 2.6 s after the step; nothing on it changed in between.');
    viewer.dispose();
    mount();
    selectSeq(5);
    expect($('[data-testid="snapshot"] .afr-note')).toBeNull();
  });

  it('says so when a step page cannot be read, and shows the failure page instead', () => {
    const pages = makeStepPages();
    pages.delete('snapshots/page-003.json');
    mount(makeTimelineBundleData(), pages);
    selectSeq(5);
    expect($('[data-testid="snapshot"] .afr-note')!.textContent).toBe(
      'The page at this step cannot be shown (snapshots/page-003.json: missing from the bundle); showing the page at the failure.',
    );
  });

  it('shows the page before the navigation that led to the failure page, when snapshot.json names it', () => {
    mount();
    $('[data-testid="show-previous"]')!.click();
    expect(caption()).toBe('before the navigation to the failure page');
    expect($('[data-testid="snapshot"]')!.textContent).toContain('"Place order"');
    $('[data-testid="show-previous"]')!.click();
    expect(caption()).toBe('at the failure (step #6: failure: assertion_failed)');
  });

  it('the changes tab lists what the step changed: plain words first, then the detail', () => {
    mount();
    $('[data-testid="tab-changes"]')!.click();
    // The failure's own step, selected at the start, changed nothing recorded.
    expect($('[data-testid="changes"]')!.textContent).toContain('No changes were recorded for this step');
    selectSeq(5);
    expect($('[data-testid="tab-changes"]')!.getAttribute('aria-selected')).toBe('true');
    const changes = $('[data-testid="changes"]')!;
    expect(changes.firstElementChild!.textContent).toBe('after clicking Place order: the form disappeared, an h1 "Internal Server Error" appeared');
    expect($('[data-testid="changes-removed"]')!.textContent).toBe('Removed (1)form "checkout" (6 elements), with button "Place order"');
    expect($('[data-testid="changes-added"]')!.textContent).toBe('Added (1)h1 heading "Internal Server Error"');
    expect(changes.textContent).toContain('URL https://shop.test/checkout \u2192 https://shop.test/checkout/submit');
    expect(changes.textContent).toContain('another document');
    // A withheld value is only said to have changed.
    selectSeq(2);
    expect($('[data-testid="changes-values"]')!.textContent).toBe('Values (1)input "Password": value changed (redacted)');
    selectSeq(3);
    expect($('[data-testid="changes-values"]')!.textContent).toBe('Values (1)input "Name": "" \u2192 "Jane"');
    selectSeq(1);
    expect(changes.isConnected).toBe(false);
    expect($('[data-testid="changes"]')!.textContent).toContain('No changes were recorded for this step');
    $('[data-testid="tab-dom"]')!.click();
    expect($('[data-testid="dom-tree"]')).not.toBeNull();
  });

  it('↓ and ↑ walk the steps from the failing one selected at the start, and stop at the ends; text fields keep the keys', () => {
    mount();
    expect(selectedSeqs()).toEqual([6]);
    expect(press('ArrowUp').defaultPrevented).toBe(true);
    expect(selectedSeqs()).toEqual([5]);
    press('ArrowUp');
    press('ArrowUp');
    expect(selectedSeqs()).toEqual([3]);
    expect(caption()).toContain('step #3: type');
    press('ArrowDown');
    expect(selectedSeqs()).toEqual([4]);
    for (let i = 0; i < 8; i++) press('ArrowUp');
    expect(viewer.selectedStep()).toBe(0);
    const field = document.createElement('input');
    document.body.appendChild(field);
    press('ArrowDown', field);
    expect(viewer.selectedStep()).toBe(0);
    for (let i = 0; i < 8; i++) press('ArrowDown');
    expect(selectedSeqs()).toEqual([6]);
  });

  it('draws the target box and the click point on the frame of the step, in the frame\u2019s pixels', () => {
    mount();
    selectSeq(5);
    const marks = $('[data-testid="target-marks"]')!;
    expect(marks.getAttribute('viewBox')).toBe('0 0 1280 720');
    const dot = marks.querySelector('[data-testid="target-point"]')!;
    expect([dot.getAttribute('cx'), dot.getAttribute('cy')]).toEqual([String(CLICK_POINT.x), String(CLICK_POINT.y)]);
    const box = marks.querySelector('[data-testid="target-rect"]')!;
    expect(['x', 'y', 'width', 'height'].map((a) => Number(box.getAttribute(a)))).toEqual([BUTTON_RECT.x, BUTTON_RECT.y, BUTTON_RECT.width, BUTTON_RECT.height]);
    expect($('[data-testid="target-note"]')!.textContent).toBe('');
    // Another frame is another moment: no marks on it; back on the step's frame, they return.
    const drawn = () => marks.querySelectorAll('rect, circle').length;
    press('ArrowRight');
    expect(drawn()).toBe(0);
    press('ArrowLeft');
    expect(drawn()).toBe(2);
    // A typing step has a box and no point.
    selectSeq(3);
    expect(marks.querySelector('[data-testid="target-point"]')).toBeNull();
    expect(marks.querySelector('[data-testid="target-rect"]')).not.toBeNull();
  });

  it('shows an action\u2019s frame from before it, and says when its target lies outside that frame', () => {
    const data = makeTimelineBundleData();
    // The click just before a frame of the next page: its own frame is the one before.
    data.steps.steps[4]!.ts = data.manifest.frames[3]!.ts - 50;
    // A window shorter than the viewport: the frames show its top 300 px, the button is below them.
    data.manifest.frames = data.manifest.frames.map((f) => ({ ...f, height: 300 }));
    mount(data);
    viewer.selectStep(4);
    expect(counter()).toBe('frame 3 / 4');
    expect($('[data-testid="target-note"]')!.textContent).toContain('outside this frame');
    const clip = $('[data-testid="target-marks"] > svg')!;
    expect([clip.getAttribute('width'), clip.getAttribute('height')]).toEqual(['1280', '300']);
    expect(clip.querySelector('[data-testid="target-point"]')).not.toBeNull();
  });

  it('scales the marks from CSS px to the frame: a frame twice as wide as the viewport doubles them', () => {
    const data = makeTimelineBundleData();
    data.manifest.frames = data.manifest.frames.map((f) => ({ ...f, width: 2560, height: 1440 }));
    mount(data);
    viewer.selectStep(4);
    const dot = $('[data-testid="target-point"]')!;
    expect([Number(dot.getAttribute('cx')), Number(dot.getAttribute('cy')), Number(dot.getAttribute('r'))]).toEqual([CLICK_POINT.x * 2, CLICK_POINT.y * 2, 20]);
  });

  it('maps the marks with the shown frame’s own viewport: a window resized to 1000×600 at 2× before the click, the failure’s viewport 1280×720', () => {
    const data = makeTimelineBundleData();
    // The frame of the click (frame 3) was taken after the resize: 2000 px wide for a 1000 px viewport.
    data.manifest.frames = data.manifest.frames.map((f, i) => (i === 2 ? { ...f, width: 2000, height: 1200, viewport: { width: 1000, height: 600, device_pixel_ratio: 2 } } : f));
    mount(data);
    viewer.selectStep(4);
    expect(counter()).toBe('frame 3 / 4');
    const dot = () => $('[data-testid="target-point"]')!;
    // By `snapshot.json`'s viewport it would be 2000/1280 = 1.5625 image px per CSS px.
    expect([Number(dot().getAttribute('cx')), Number(dot().getAttribute('cy'))]).toEqual([CLICK_POINT.x * 2, CLICK_POINT.y * 2]);
    viewer.dispose();
    // An emulated 1000 px viewport in a 1280 px window: the frame says it draws 1 image px per CSS px.
    data.manifest.frames[2] = { ...data.manifest.frames[2]!, width: 1280, height: 577, viewport: { width: 1000, height: 600, device_pixel_ratio: 1, image_scale: 1 } };
    mount(data);
    viewer.selectStep(4);
    expect([Number(dot().getAttribute('cx')), Number(dot().getAttribute('cy'))]).toEqual([CLICK_POINT.x, CLICK_POINT.y]);
    // …and the frame says it shows the viewport's top only, and how to record all of it.
    expect($('[data-testid="frame-cut"]')!.textContent).toBe(
      "this frame shows 1000×577 of the page's 1000×600 viewport (CSS px): the window was smaller than the viewport; launch the browser with --silent-debugger-extension-api",
    );
    viewer.selectStep(0);
    expect($('[data-testid="frame-cut"]')!.textContent).toBe('');
  });

  it('copes with a bundle whose viewer cannot read step pages', () => {
    viewer = mountViewer(root, makeTimelineBundleData(), { frameUrl: () => null, clipUrl: null }, { requestFrame: () => undefined });
    viewer.selectStep(4);
    expect($('[data-testid="snapshot"] .afr-note')!.textContent).toContain('cannot be shown');
    expect($('[data-testid="show-previous"]')).toBeNull();
  });
});

describe('step pages embedded in viewer.html', () => {
  it('parses a page from its text, and refuses one missing, not JSON, or nested past the bound', () => {
    const file = makeStepPages().get('snapshots/page-003.json')!;
    const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
    const read = embeddedStepPages({ 'snapshots/page-003.json': JSON.stringify(file), 'snapshots/page-005.json': '{oops', 'snapshots/page-006.json': deep });
    expect(read('snapshots/page-003.json')).toEqual({ ok: true, file });
    expect(read('snapshots/page-004.json')).toEqual({ ok: false, error: 'snapshots/page-004.json is not in this viewer.html' });
    expect(read('snapshots/page-005.json').ok).toBe(false);
    expect(read('snapshots/page-006.json')).toEqual({ ok: false, error: 'snapshots/page-006.json is nested more than 512 levels deep' });
    expect(embeddedStepPages(undefined)('snapshots/page-003.json').ok).toBe(false);
  });
});

describe('step pages are read lazily', () => {
  it('reads each page once, and refuses names outside snapshots/', () => {
    const read = vi.fn((path: string): StepPageRead => ({ ok: false, error: path }));
    const pages = cachedStepPages(read);
    pages('page-003');
    pages('snapshots/page-003.json');
    pages('page-003.json');
    expect(read.mock.calls).toEqual([['snapshots/page-003.json']]);
    for (const bad of ['../manifest.json', 'snapshots/../steps.json', 'snapshots/a/b.json', '', '/etc/passwd', 'snapshots/..json']) {
      const result = pages(bad);
      expect(result.ok).toBe(false);
    }
    expect(read).toHaveBeenCalledTimes(1);
  });
});
