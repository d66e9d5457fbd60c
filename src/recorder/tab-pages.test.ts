import { describe, expect, it } from 'vitest';
import { TabPages } from './tab-pages';

// The orders in which a page given on Chromium's command line and the service worker's start-up can
// meet: the worker first (its `tabs.query` sees a tab without a URL), the tab first (events told the
// URL while the query was answered), the tab loading slowly (the URL comes with `loading`, the
// document later).

const pages = () => new TabPages({ redact: (url) => url.replace(/token=[^&]*/, 'token=[redacted]'), isWebPage: (url) => /^(https?|file):/.test(url) });
const PAGE = 'https://shop.test/errors.html';

describe('TabPages', () => {
  it('worker first: a tab without a URL at start-up is unknown, and becomes a web page when it commits its first URL', () => {
    const tabs = pages();
    const asOf = tabs.mark();
    expect(tabs.see(7, '', asOf)).toEqual({ taken: false, becameWebPage: false });
    expect(tabs.see(7, undefined, asOf)).toEqual({ taken: false, becameWebPage: false });
    expect(tabs.url(7)).toBeNull();
    expect(tabs.isWebPage(7)).toBeUndefined();
    expect(tabs.see(7, PAGE)).toEqual({ taken: true, becameWebPage: true });
    expect(tabs.url(7)).toBe(PAGE);
    expect(tabs.isWebPage(7)).toBe(true);
  });

  it('tab first: the start-up snapshot answered after the commit events never overwrites them (empty, about:blank or the old URL)', () => {
    const tabs = pages();
    const asOf = tabs.mark(); // tabs.query asked; the tab commits before the answer arrives
    expect(tabs.see(7, PAGE)).toEqual({ taken: true, becameWebPage: true });
    for (const stale of ['', 'about:blank', 'https://shop.test/old']) expect(tabs.see(7, stale, asOf).taken).toBe(false);
    expect(tabs.url(7)).toBe(PAGE);
    expect(tabs.isWebPage(7)).toBe(true);
    // A snapshot asked after the event is newer: it is taken.
    expect(tabs.see(7, 'https://shop.test/next', tabs.mark())).toEqual({ taken: true, becameWebPage: false });
  });

  it('tab loading: about:blank first, then the URL as it loads and again once complete: a web page once, from its first URL', () => {
    const tabs = pages();
    expect(tabs.see(7, 'about:blank', tabs.mark())).toEqual({ taken: true, becameWebPage: false });
    expect(tabs.isWebPage(7)).toBe(false);
    expect(tabs.see(7, PAGE)).toEqual({ taken: true, becameWebPage: true }); // status loading
    expect(tabs.see(7, PAGE)).toEqual({ taken: true, becameWebPage: false }); // status complete
    expect(tabs.see(7, '')).toEqual({ taken: false, becameWebPage: false }); // an update without a URL
    expect(tabs.url(7)).toBe(PAGE);
  });

  it('a tab leaving the web (chrome://) and coming back is a web page again; a closed tab is forgotten', () => {
    const tabs = pages();
    tabs.see(7, PAGE);
    expect(tabs.see(7, 'chrome://settings')).toEqual({ taken: true, becameWebPage: false });
    expect(tabs.isWebPage(7)).toBe(false);
    expect(tabs.see(7, PAGE).becameWebPage).toBe(true);
    tabs.forget(7);
    expect(tabs.url(7)).toBeNull();
    expect(tabs.isWebPage(7)).toBeUndefined();
  });

  it('keeps the URL redacted', () => {
    const tabs = pages();
    tabs.see(7, 'https://shop.test/cb?token=s3cr3t&x=1');
    expect(tabs.url(7)).toBe('https://shop.test/cb?token=[redacted]&x=1');
  });
});
