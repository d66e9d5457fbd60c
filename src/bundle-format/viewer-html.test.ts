// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { BundleData } from './bundle-data';
import { EMBEDDED_DATA_ID, VIEWER_CSP, buildViewerHtml, embedScript, readEmbeddedData } from './viewer-html';
import { makeBundleData } from '../../test/fakes/viewer-bundle';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

describe('buildViewerHtml', () => {
  it('embeds the bundle JSON so that it parses back to the same data', () => {
    const data = makeBundleData();
    const doc = parse(buildViewerHtml('window.started = true;', data));
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
    const html = buildViewerHtml('window.started = true;', data);
    expect(html).not.toContain('</script><script>window.pwned');
    expect(html).not.toMatch(/<\/SCRIPT/);
    const doc = parse(html);
    const scripts = [...doc.querySelectorAll('script')];
    expect(scripts.map((s) => s.getAttribute('type'))).toEqual(['application/json', null]);
    expect(scripts[1]!.textContent).toBe('window.started = true;');
    expect(doc.querySelector('img')).toBeNull();
    expect((JSON.parse(scripts[0]!.textContent!) as BundleData).steps.steps[0]!.action).toBe('</script><script>window.pwned = 1</script><!-- <script>');
  });

  it('forbids every request but its own files with a CSP meta tag', () => {
    const doc = parse(buildViewerHtml('', makeBundleData()));
    const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content');
    expect(csp).toBe(VIEWER_CSP);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/https?:/);
    expect(doc.querySelector('style')!.textContent).toContain('.afr-viewer');
    expect(doc.querySelectorAll('link, [src]').length).toBe(0);
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
