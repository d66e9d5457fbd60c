// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { FailureGroup } from './failure-groups';
import { escapeHtml, safeHref, triageReportHtml } from './report-html';

const HOSTILE = `</td><script>alert(1)</script><img src=x onerror=alert(2)>"'\`=cmd|' /C calc'!A0`;
const NOW = Date.UTC(2026, 10, 23, 9, 30);

function group(n: number, count: number, over: Partial<FailureGroup> = {}): FailureGroup {
  return {
    fingerprint: `${n}`.repeat(16).slice(0, 16), signature: `page_exception: ${HOSTILE}`, reason: 'page_exception', count, previous: 0, firstSeen: NOW - 3_600_000, lastSeen: NOW - 60_000,
    agents: [HOSTILE], agentVersions: [], pages: [`shop.test/${HOSTILE}`], newest: [`fleet/bundles/${HOSTILE}.zip`, 'fleet/bundles/b.zip'], trend: 'new', histogram: [0, count, 0, 1], ...over,
  };
}

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

describe('the triage report', () => {
  it('is one page with no script, a strict CSP, a line per charted group and a row per group', async () => {
    const html = await triageReportHtml({
      title: `Failures of s3://runs/${HOSTILE}`, since: NOW - 86_400_000, until: NOW, failures: 6, skipped: 2,
      groups: [group(1, 3), group(2, 2, { trend: 'growing', previous: 1 }), group(3, 1, { trend: 'steady' })],
      links: (location) => ({ label: location, open: location.endsWith('b.zip') ? 'chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/viewer.html?bundle=https%3A%2F%2Fx' : 'javascript:alert(3)', download: location.endsWith('b.zip') ? 'https://x/b.zip?X-Amz-Signature=1&a=2' : 'data:text/html,<b>' }),
    });
    const doc = parse(html);
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    expect(doc.querySelectorAll('img')).toHaveLength(0);
    expect(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; img-src 'none'; base-uri 'none'; form-action 'none'$/);
    expect(doc.querySelectorAll('#chart polyline.series')).toHaveLength(3);
    expect([...doc.querySelectorAll('tbody tr')].map((tr) => tr.querySelector('td')!.textContent)).toEqual(['3', '2', '1']);
    expect(doc.querySelector('tbody tr')!.textContent).toContain(HOSTILE);
    expect(doc.querySelector('tbody')!.textContent).toContain('NEW');
    expect(doc.querySelector('tbody')!.textContent).toContain('GROWING');
    expect(doc.title).toBe(`Failures of s3://runs/${HOSTILE}`);
    const hrefs = [...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(Array(3).fill(['chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/viewer.html?bundle=https%3A%2F%2Fx', 'https://x/b.zip?X-Amz-Signature=1&a=2']).flat());
  });

  it('says so when the window has no failure', async () => {
    const doc = parse(await triageReportHtml({ title: 't', since: 0, until: NOW, failures: 0, skipped: 0, groups: [], links: () => ({ label: '', open: null, download: null }) }));
    expect(doc.body.textContent).toContain('No failures in that window.');
    expect(doc.querySelector('svg')).toBeNull();
  });

  it.each([
    ['https://bucket.s3.amazonaws.com/k.zip?X-Amz-Signature=a', true],
    ['http://127.0.0.1:9000/runs/k.zip', true],
    ['http://shop.test/k.zip', false],
    ['bundles/2026/11/23/afr-x.zip', true],
    ['../copy/bundles/a%20b.zip', true],
    ['javascript:alert(1)', false],
    ['JaVaScRiPt:alert(1)', false],
    ['data:text/html,x', false],
    ['//evil.test/x', false],
    ['file:///etc/passwd', false],
    ['chrome-extension://jaaohpahabfabmkanbnjkhpfligimhfi/viewer.html?bundle=x', true],
  ])('links %s: %s', (url, kept) => {
    expect(safeHref(url) !== null).toBe(kept);
  });

  it('escapes the characters HTML gives meaning to', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\``)).toBe('&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;&#96;');
  });
});
