// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { networkHar } from '../../test/fixtures/cli/network-har';
import { makeBundleData, T0 } from '../../test/fakes/viewer-bundle';
import type { BundleMedia } from './bundle-media';
import { mountViewer, type MountedViewer } from './viewer-app';

const media: BundleMedia = { frameUrl: (name) => `blob:test/${name}`, clipUrl: null };
const $ = <E extends Element = HTMLElement>(selector: string) => document.querySelector<E>(selector);
const $$ = (selector: string) => [...document.querySelectorAll<HTMLElement>(selector)];

describe('the Network panel', () => {
  let root: HTMLElement;
  let viewer: MountedViewer;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.replaceChildren(root);
  });
  afterEach(() => viewer?.dispose());

  /** The viewer's bundle (steps at -3.1 s … 0, tab 7) with the readers' HAR moved into its window. */
  const mount = (edit: (har: ReturnType<typeof networkHar>) => void = () => undefined) => {
    const har = networkHar(2);
    har.log.entries.forEach((e, i) => (e.startedDateTime = new Date(T0 - 3_000 + i * 500).toISOString()));
    edit(har);
    viewer = mountViewer(root, { ...makeBundleData(), har }, media, { requestFrame: () => undefined });
    return har;
  };

  it('draws a waterfall row per request: status, method, URL, type, size, time and a bar', () => {
    mount();
    const rows = $$('[data-testid="requests"] > li');
    expect(rows.map((r) => r.dataset.request)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(rows[2]!.classList.contains('afr-fail')).toBe(true);
    expect([...rows[2]!.querySelectorAll('span')].map((s) => s.textContent)).toEqual(['#3', '500', 'POST', 'https://shop.test/api/pay', 'Fetch', '40 B', '34 ms']);
    const bar = rows[0]!.querySelector('rect')!;
    expect(Number(bar.getAttribute('x'))).toBeGreaterThanOrEqual(0);
    expect(Number(bar.getAttribute('width'))).toBeGreaterThan(0);
    expect($('[data-testid="network"] h2')!.textContent).toBe('Network 6 requests, 1 failed');
  });

  it('shows a selected request’s headers and bodies, JSON pretty-printed, masks marked as masks', () => {
    mount();
    $$('[data-testid="requests"] .afr-request-button')[0]!.click();
    const detail = $('[data-testid="request-detail"]')!;
    expect(detail.querySelector('h3')!.textContent).toBe('#1 POST 200 OK');
    const bodies = [...detail.querySelectorAll('[data-testid="request-body"] pre')].map((p) => p.textContent);
    expect(bodies[0]).toBe('{\n  "user": "[email]",\n  "password": "[redacted 8+]"\n}');
    expect(detail.textContent).toContain('AuthorizationBearer [redacted 32+]');
    $$('[data-testid="requests"] .afr-request-button')[1]!.click();
    expect(detail.querySelector('[data-testid="request-body"] pre')!.textContent).toBe('{\n  "error": "token_expired",\n  "items": []\n}');
  });

  it('marks the recorder’s masks, shows bidi escaped, and never parses page text as markup', () => {
    mount((har) => {
      har.log.entries[1]!.response.content.text = '{"password":"[redacted <8]","mail":"[email]","name":"\u202eexe.txt","html":"<img src=x onerror=alert(1)>"}';
    });
    $$('[data-testid="requests"] .afr-request-button')[1]!.click();
    const pre = $('[data-testid="request-detail"] pre')!;
    expect([...pre.querySelectorAll('.afr-mask')].map((m) => m.textContent)).toEqual(['[redacted <8]', '[email]']);
    expect(pre.textContent).toContain('"name": "\\u202eexe.txt"');
    expect(pre.querySelector('img')).toBeNull();
  });

  it('links steps and requests both ways, by time and tab', () => {
    mount();
    // Requests start every 0.5 s from -3 s; steps #1 -3.1 s, #2 -2.05 s, #3 -1.95 s, #4 -1.1 s, #5 -0.9 s, #6 the recorder's.
    const link = () => $('[data-testid="request-step"]')!;
    $$('[data-testid="requests"] .afr-request-button')[2]!.click();
    expect(link().textContent).toBe('step #2');
    link().click();
    expect(viewer.selectedStep()).toBe(1);
    expect($('[data-testid="step-requests"]')!.textContent).toBe('Step #2 caused: #3');
    expect($$('.afr-request.afr-caused').map((r) => r.dataset.request)).toEqual(['3']);
    // The timeline says how many requests a step caused.
    expect($$('[data-testid="timeline"] .afr-step-requests').map((b) => b.textContent)).toEqual(['\u2192 2 requests', '\u2192 1 request', '\u2192 1 request', '\u2192 1 request', '\u2192 1 request']);
  });

  it('says when the bundle has no network.har', () => {
    viewer = mountViewer(root, makeBundleData(), media, { requestFrame: () => undefined });
    expect($('[data-testid="network"]')!.textContent).toBe('NetworkThis bundle has no network.har (written before the network log, or of no tab).');
  });
});
