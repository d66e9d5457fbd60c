// @vitest-environment happy-dom
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BundleData } from './bundle-data';
import { EMBEDDED_DATA_ID, buildViewerHtml, cspHash, embedScript, embeddedDataText, readEmbeddedData, viewerCsp } from './viewer-html';
import { VIEWER_CSS } from './viewer-styles';
import { makeBundleData } from '../../test/fakes/viewer-bundle';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

const SCRIPT = 'window.started = true;';
const CSP = await viewerCsp(SCRIPT);

describe('buildViewerHtml', () => {
  it('embeds the bundle JSON so that it parses back to the same data', () => {
    const data = makeBundleData();
    const doc = parse(buildViewerHtml(SCRIPT, data, CSP));
    const embedded = doc.getElementById(EMBEDDED_DATA_ID)!;
    expect(embedded.getAttribute('type')).toBe('application/json');
    expect(JSON.parse(embedded.textContent!) as BundleData).toEqual(data);
    expect(readEmbeddedData(doc)).toEqual(data);
  });

  it('reads no data from a page without it', () => {
    expect(() => readEmbeddedData(parse('<p>no data</p>'))).toThrow(SyntaxError);
  });

  it('keeps page text from closing the data element: `</script>` in a step stays inside the JSON', () => {
    const data = makeBundleData();
    data.steps.steps[0]!.action = '</script><script>window.pwned = 1</script><!-- <script>';
    data.snapshot!.snapshot!.root.text = '</SCRIPT ><img src=x onerror=alert(1)>';
    const html = buildViewerHtml(SCRIPT, data, CSP);
    expect(html).not.toContain('</script><script>window.pwned');
    expect(html).not.toMatch(/<\/SCRIPT/);
    const doc = parse(html);
    const scripts = [...doc.querySelectorAll('script')];
    expect(scripts.map((s) => s.getAttribute('type'))).toEqual(['application/json', null]);
    expect(scripts[1]!.textContent).toBe('window.started = true;');
    expect(doc.querySelector('img')).toBeNull();
    expect((JSON.parse(scripts[0]!.textContent!) as BundleData).steps.steps[0]!.action).toBe('</script><script>window.pwned = 1</script><!-- <script>');
  });

  it('forbids every request but its own files, and every script and style but its own, with a CSP meta tag', async () => {
    const doc = parse(buildViewerHtml(SCRIPT, makeBundleData(), CSP));
    const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content');
    expect(csp).toBe(CSP);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/https?:/);
    expect(csp).not.toContain('unsafe-inline');
    // The hashes are those of the inline script and style exactly as the page carries them.
    expect(csp).toContain(`script-src ${await cspHash(doc.querySelectorAll('script')[1]!.textContent!)}`);
    expect(csp).toContain(`style-src ${await cspHash(doc.querySelector('style')!.textContent!)}`);
    expect(doc.querySelector('style')!.textContent).toContain('.afr-viewer');
    expect(doc.querySelectorAll('link, [src]').length).toBe(0);
  });

  it('finds the data element without a DOM, as the command line does', () => {
    const data = makeBundleData();
    data.steps.steps[0]!.action = '</script> <script type="application/json" id="afr-data">';
    const text = embeddedDataText(buildViewerHtml(SCRIPT, data, CSP));
    expect(JSON.parse(text!)).toEqual(data);
    expect(embeddedDataText('<p>no data</p>')).toBeNull();
  });

  it.each([
    ['var a = "</script>";', 'var a = "\\x3C/script>";'],
    ['var b = "<!-- x";', 'var b = "\\x3C!-- x";'],
    ['/<\\/SCRIPT/i.test(s)', '/<\\/SCRIPT/i.test(s)'],
    ['x < y', 'x < y'],
  ])('escapes %s in the script as %s', (script, expected) => {
    expect(embedScript(script)).toBe(expected);
    // Same meaning in JS: a string literal keeps its value.
    if (script.startsWith('var')) expect(new Function(`${embedScript(script)}; return ${script[4]};`)()).toBe(new Function(`${script}; return ${script[4]};`)());
  });
});

describe('cspHash', () => {
  it('is the base64 SHA-256 of the UTF-8 text, as CSP spells it', async () => {
    for (const text of ['', SCRIPT, VIEWER_CSS, 'é → 🙂']) {
      expect(await cspHash(text)).toBe(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
    }
  });
});
