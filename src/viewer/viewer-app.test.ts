// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BundleMedia } from './bundle-media';
import { HOSTILE, makeBundleData } from '../../test/fakes/viewer-bundle';
import { mountViewer, type MountedViewer } from './viewer-app';

const media: BundleMedia = { frameUrl: (name) => `blob:test/${name}`, clipUrl: null };
const frameSrc = () => document.querySelector<HTMLImageElement>('[data-testid="frame-image"]')!.getAttribute('src');
const counter = () => document.querySelector('[data-testid="frame-counter"]')!.textContent;
const press = (key: string, target: EventTarget = document.body) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));

describe('bundle viewer', () => {
  let root: HTMLElement;
  let viewer: MountedViewer;
  let clock = 0;
  let pending: (() => void)[] = [];

  beforeEach(() => {
    clock = 0;
    pending = [];
    root = document.createElement('div');
    document.body.replaceChildren(root);
  });
  afterEach(() => viewer?.dispose());

  const mount = (m: BundleMedia = media) => {
    viewer = mountViewer(root, makeBundleData(), m, { now: () => clock, requestFrame: (cb) => pending.push(cb) });
  };
  const runFrames = () => {
    const callbacks = pending;
    pending = [];
    callbacks.forEach((cb) => cb());
  };

  it('lists every step of steps.json in order, with source, kind, action, target and outcome', () => {
    mount();
    const data = makeBundleData();
    const entries = [...document.querySelectorAll<HTMLElement>('[data-testid="timeline"] > li')];
    expect(entries.map((e) => Number(e.dataset.seq))).toEqual(data.steps.steps.map((s) => s.seq));
    expect(entries.map((e) => e.querySelector('.afr-step-action')!.textContent)).toEqual(data.steps.steps.map((s) => s.action));
    const click = entries[4]!;
    expect(click.querySelector('.afr-step-target')!.textContent).toBe('button "Place order" #place-order');
    expect(click.querySelector('.afr-badge')!.textContent).toBe('observer');
    const signal = entries[5]!;
    expect(signal.dataset.kind).toBe('signal');
    expect(signal.classList.contains('afr-fail')).toBe(true);
    expect(signal.textContent).toContain('order confirmation never appeared');
    expect(entries[3]!.textContent).toContain('place the order');
    expect(document.querySelector('[data-testid="warnings"]')!.textContent).toContain('frame 3 was evicted');
  });

  it('shows a typed value, but only a "redacted" badge for a withheld one', () => {
    mount();
    const [, password, name] = document.querySelectorAll('[data-testid="timeline"] > li');
    expect(password!.querySelector('.afr-redacted')!.textContent).toBe('redacted');
    expect(password!.querySelector('.afr-step-value')).toBeNull();
    expect(name!.querySelector('.afr-step-value')!.textContent).toBe('Jane');
  });

  it('marks redacted fields in the snapshot tree, even below the levels opened at first', () => {
    mount();
    const badge = document.querySelector('[data-testid="snapshot"] [data-testid="redacted"]');
    expect(badge?.textContent).toBe('redacted: password');
    expect(badge!.closest('details:not([open])')).toBeNull();
  });

  it('renders page text as text: markup in a step or the snapshot creates no element', () => {
    mount();
    expect(root.textContent).toContain(HOSTILE);
    expect(root.textContent).toContain('</script><script>alert(2)</script>');
    expect(root.querySelector('img[src="x"]')).toBeNull();
    expect(root.querySelector('script, h1')).toBeNull();
    expect(document.querySelectorAll('img').length).toBe(1);
  });

  it('opens at the failure: the screen at the failure shown, the failing step selected, as afr summary tells it', () => {
    mount();
    // The failure at T0: frame 4 (T0-400) is on screen then; step #6, the assertion signal, failed.
    expect(counter()).toBe('frame 4 / 4');
    expect(viewer.selectedStep()).toBe(5);
    const selected = document.querySelector<HTMLElement>('[data-testid="timeline"] > li.afr-selected')!;
    expect(selected.dataset.step).toBe('6');
    expect(selected.querySelector('[data-testid="step-number"]')!.textContent).toBe('#6');
    expect(selected.querySelector('button')!.getAttribute('aria-current')).toBe('step');
  });

  it('opens with the failing step in view when the screen at the failure is a later frame, other steps on it', () => {
    // A layout for happy-dom, which has none: rows 30 px high, the list shows 60 px.
    const proto = HTMLElement.prototype;
    const saved = ['offsetTop', 'offsetHeight', 'clientHeight'].map((key) => [key, Object.getOwnPropertyDescriptor(proto, key)] as const);
    Object.defineProperty(proto, 'offsetTop', { configurable: true, get(this: HTMLElement) { return (Number(this.dataset.step ?? 1) - 1) * 30; } });
    Object.defineProperty(proto, 'offsetHeight', { configurable: true, get: () => 30 });
    Object.defineProperty(proto, 'clientHeight', { configurable: true, get: () => 60 });
    try {
      const data = makeBundleData();
      // Step #2 failed (T0-2050) on the first frame; the screen at the failure (T0) is the second one,
      // where steps #5 and #6 are: showing it scrolls the list to #5.
      const [first, second] = data.manifest.frames;
      data.manifest.frames = [{ ...first!, ts: first!.ts - 2000 }, { ...second!, ts: data.steps.steps[3]!.ts + 100 }];
      data.steps.steps[1]!.outcome = 'fail';
      data.steps.steps[5]!.outcome = null;
      viewer = mountViewer(root, data, media, { now: () => clock, requestFrame: (cb) => pending.push(cb) });
      expect(viewer.selectedStep()).toBe(1);
      expect(counter()).toBe('frame 2 / 2');
      const list = document.querySelector<HTMLElement>('[data-testid="timeline"]')!;
      // Row #2 spans 30–60 px: inside the 60 px the list shows from its scroll position.
      expect(list.scrollTop).toBeLessThanOrEqual(30);
      expect(list.scrollTop + 60).toBeGreaterThanOrEqual(60);
    } finally {
      for (const [key, descriptor] of saved) {
        if (descriptor) Object.defineProperty(proto, key, descriptor);
        else delete (proto as unknown as Record<string, unknown>)[key];
      }
    }
  });

  it('numbers the steps by their position, as afr and the MCP tools do', () => {
    mount();
    const numbers = [...document.querySelectorAll('[data-testid="timeline"] [data-testid="step-number"]')].map((n) => n.textContent);
    expect(numbers).toEqual(['#1', '#2', '#3', '#4', '#5', '#6']);
  });

  it('→ and ← step through the frames and stop at the ends', () => {
    mount();
    viewer.showFrame(0);
    expect(frameSrc()).toBe('blob:test/frames/frame_0001.jpeg');
    expect(counter()).toBe('frame 1 / 4');
    press('ArrowRight');
    press('ArrowRight');
    expect(frameSrc()).toBe('blob:test/frames/frame_0003.jpeg');
    expect(document.querySelector<HTMLInputElement>('[data-testid="scrubber"]')!.value).toBe('2');
    press('ArrowLeft');
    expect(counter()).toBe('frame 2 / 4');
    for (let i = 0; i < 6; i++) press('ArrowRight');
    expect(counter()).toBe('frame 4 / 4');
  });

  it('moves one frame per key press on a focused scrubber, and leaves text fields alone', () => {
    mount();
    viewer.showFrame(0);
    const scrubber = document.querySelector<HTMLInputElement>('[data-testid="scrubber"]')!;
    const event = new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, cancelable: true });
    scrubber.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(viewer.currentFrame()).toBe(1);
    const field = document.createElement('input');
    document.body.appendChild(field);
    press('ArrowRight', field);
    expect(viewer.currentFrame()).toBe(1);
  });

  it('shows the time of the current frame relative to the failure', () => {
    mount();
    viewer.showFrame(0);
    expect(document.querySelector('[data-testid="frame-time"]')!.textContent).toBe('11:59:57.000 UTC \u00B7 \u22123.00 s \u00B7 1280\u00D7720');
  });

  it('jumps to the frame of a step (the screen at its time) when the step is clicked, and marks it current', () => {
    mount();
    const entries = document.querySelectorAll<HTMLElement>('[data-testid="timeline"] > li');
    entries[2]!.querySelector('button')!.click(); // T0-1950: the frame captured at T0-2000 is on screen, the second
    expect(counter()).toBe('frame 2 / 4');
    // T0-2050 came before that capture: the first frame was still on screen, though the second is nearer.
    expect(entries[1]!.classList.contains('afr-current')).toBe(false);
    expect(entries[1]!.classList.contains('afr-past')).toBe(true);
    expect(entries[2]!.classList.contains('afr-current')).toBe(true);
    expect(entries[0]!.classList.contains('afr-past')).toBe(true);
    entries[5]!.querySelector('button')!.click();
    expect(counter()).toBe('frame 4 / 4');
  });

  it('shows one entry for identical captures in a row, and finds it for a step between them', () => {
    const data = makeBundleData();
    // The first two frames were the same picture: one entry covering both moments.
    const [first, second, ...rest] = data.manifest.frames;
    const renamed = rest.map((f, i) => ({ ...f, name: `frames/frame_000${i + 2}.jpeg` }));
    data.manifest.frames = [{ ...first!, duration_ms: first!.duration_ms + second!.duration_ms, captures: 2, last_ts: second!.ts }, ...renamed];
    data.manifest.frame_count = 3;
    viewer = mountViewer(root, data, media, { now: () => clock, requestFrame: (cb) => pending.push(cb) });
    expect(counter()).toBe('frame 3 / 3');
    viewer.showFrame(0);
    expect(counter()).toBe('frame 1 / 3');
    expect(document.querySelector('[data-testid="frame-time"]')!.textContent).toBe('11:59:57.000 UTC \u00B7 \u22123.00 s \u00B7 1280\u00D7720 \u00B7 unchanged over 2 captures until \u22122.00 s');
    const entries = document.querySelectorAll<HTMLElement>('[data-testid="timeline"] > li');
    entries[2]!.querySelector('button')!.click(); // T0-1950: the last capture before it is T0-2000, in the first entry
    expect(frameSrc()).toBe('blob:test/frames/frame_0001.jpeg');
    entries[3]!.querySelector('button')!.click(); // T0-1100: still the first entry's picture (the next capture is at T0-1000)
    expect(counter()).toBe('frame 1 / 3');
    entries[4]!.querySelector('button')!.click(); // T0-900: the capture at T0-1000, the second entry
    expect(counter()).toBe('frame 2 / 3');
    expect(frameSrc()).toBe('blob:test/frames/frame_0002.jpeg');
  });

  it('scrubbing the range input shows that frame', () => {
    mount();
    const scrubber = document.querySelector<HTMLInputElement>('[data-testid="scrubber"]')!;
    scrubber.value = '3';
    scrubber.dispatchEvent(new Event('input', { bubbles: true }));
    expect(frameSrc()).toBe('blob:test/frames/frame_0004.jpeg');
  });

  it('space plays through the frames at their real durations and pauses; the timeline follows', () => {
    mount();
    viewer.showFrame(0);
    press(' ');
    expect(document.querySelector('[data-testid="play"]')!.getAttribute('aria-pressed')).toBe('true');
    clock = 1500; // frame 2 shows from 1.0 s to 2.0 s
    runFrames();
    expect(counter()).toBe('frame 2 / 4');
    expect(document.querySelector('[data-testid="timeline"] > li.afr-current')!.getAttribute('data-seq')).toBe('3');
    press(' ');
    clock = 2800;
    runFrames();
    expect(counter()).toBe('frame 2 / 4');
    expect(document.querySelector('[data-testid="play"]')!.getAttribute('aria-pressed')).toBe('false');
    press(' ');
    clock = 60_000;
    runFrames();
    expect(counter()).toBe('frame 4 / 4');
    expect(document.querySelector('[data-testid="play"]')!.getAttribute('aria-pressed')).toBe('false');
  });

  it('puts the clip in a <video> over the frame', () => {
    mount({ ...media, clipUrl: 'blob:test/failure.mp4' });
    const video = document.querySelector<HTMLVideoElement>('[data-testid="clip"]')!;
    expect(video.getAttribute('src') ?? video.src).toBe('blob:test/failure.mp4');
    expect(video.muted).toBe(true);
  });

  it('falls back to playing the frames on a clock when the clip cannot be decoded', () => {
    mount({ ...media, clipUrl: 'blob:test/failure.mp4' });
    viewer.showFrame(0);
    document.querySelector('[data-testid="clip"]')!.dispatchEvent(new Event('error'));
    expect(document.querySelector('.afr-note')!.textContent).toContain('The clip cannot play here');
    press(' ');
    clock = 2500;
    runFrames();
    expect(counter()).toBe('frame 3 / 4');
    expect(document.querySelector('.afr-stage')!.classList.contains('afr-playing')).toBe(false);
  });

  it('shows the failure and the diagnostics', () => {
    mount();
    expect(document.querySelector('[data-testid="failure-reason"]')!.textContent).toBe('assertion_failed');
    expect(document.querySelector('[data-testid="failure-label"]')!.textContent).toBe('order confirmation never appeared');
    expect(document.querySelector('[data-testid="header"]')!.textContent).toContain('https://shop.test/checkout');
    const diagnostics = document.querySelector('[data-testid="diagnostics"]')!.textContent;
    expect(diagnostics).toContain('POST 502 https://shop.test/api/order');
    expect(diagnostics).toContain('cart total is NaN');
    expect(document.querySelector('[data-testid="diag-redaction"]')!.textContent).toBe('Redactionfields withheldpassword 1text maskedemail 1');
    expect(document.querySelector('[data-testid="diag-files"]')!.textContent).toContain('4 JPEG');
    // What the other tab did, its page text shown as text, never as markup.
    const others = document.querySelector('[data-testid="diag-other-tabs"]')!;
    expect(others.textContent).toContain('tab 9 · https://mail.test/inbox · 2 steps, 0 signals, 3 frames');
    expect(others.textContent).toContain(`last: navigate → ${HOSTILE}`);
    expect(others.querySelector('img')).toBeNull();
    // The command that replays it (docs/cli-and-mcp.md, afr repro).
    expect(document.querySelector('[data-testid="diag-recording"]')!.textContent).toMatch(/reproduceafr repro \S+\.zip --run/);
  });

  it('copes with a bundle without frames, snapshot or diagnostics', () => {
    const data = makeBundleData();
    data.manifest.frames = [];
    data.manifest.clip = null;
    viewer = mountViewer(root, { ...data, snapshot: null, diagnostics: null }, media, { requestFrame: () => undefined });
    expect(root.textContent).toContain('This bundle has no frames');
    expect(root.textContent).toContain('No DOM snapshot');
    expect(root.textContent).toContain('no diagnostics.json');
    press('ArrowRight');
    press(' ');
    expect(viewer.currentFrame()).toBe(-1);
    expect(document.querySelectorAll('[data-testid="timeline"] > li').length).toBe(6);
  });
});
