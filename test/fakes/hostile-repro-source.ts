import type { ReproSource, ReproStep } from '../../src/repro/ports';

/**
 * Page text that tries to end every kind of literal and comment a script writer makes: quotes,
 * backticks, `${}`, line breaks (U+2028 too), Python's triple quotes, `</script>`, NUL, a bidi override.
 * Every piece that would run calls `pwned`, so a test finds it as code by that name.
 */
export const HOSTILE =
  `x" + pwned() + "y' + pwned() + 'z\` + pwned() + \`\${pwned()}\\" ); pwned(); //\n pwned()\r\n pwned()\u2028pwned()\u2029 """ + pwned() + """ ''' + pwned() + ''' </script><script>pwned()</script>\u0000\u202e */ pwned() /* # pwned()`;

const step = (over: Partial<ReproStep>): ReproStep => ({ ts: 1000, url: 'https://shop.test/', source: 'observer', kind: 'click', action: 'click', target: null, value: null, value_redacted: false, label: null, ...over });

/** A bundle whose every page-provided string is `HOSTILE`. */
export function hostileSource(): ReproSource {
  const target = { tag: 'input', role: 'textbox', name: HOSTILE, selector: `#a[data-x="${HOSTILE}"]` };
  return {
    bundleId: `b-${HOSTILE}`,
    steps: [
      step({ kind: 'navigate', action: 'navigate', url: `https://shop.test/?q=${encodeURIComponent(HOSTILE)}#${HOSTILE}` }),
      step({ ts: 5000, kind: 'input', action: 'type', target, value: HOSTILE }),
      step({ ts: 5100, kind: 'input', action: 'type', target: { ...target, name: `${HOSTILE} email` }, value_redacted: true }),
      step({ ts: 5200, kind: 'change', action: 'select', target: { tag: 'select', name: HOSTILE, selector: HOSTILE }, value: HOSTILE }),
      step({ ts: 5300, kind: 'key', action: 'press Enter', target: { tag: 'button', role: 'button', name: HOSTILE, selector: `[data-testid="${HOSTILE.replace(/["\\]/g, '\\$&')}"]` } }),
      step({ ts: 5400, source: 'agent', kind: 'agent', action: HOSTILE, label: HOSTILE, goal: HOSTILE }),
      step({ ts: 5500, kind: 'click', action: 'click', target: { tag: 'div', name: HOSTILE, selector: HOSTILE } }),
    ],
    failure: { kind: 'exception', label: HOSTILE, message: HOSTILE, ts: 6000, http_status: null, request: null },
    viewport: { width: 1280, height: 720 },
    har: {
      log: {
        version: '1.2',
        creator: { name: HOSTILE, version: '1' },
        pages: [],
        entries: [
          {
            startedDateTime: '2026-01-01T00:00:00.000Z',
            time: 1,
            request: { method: 'GET', url: `https://shop.test/?q=${encodeURIComponent(HOSTILE)}`, httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
            response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 1, mimeType: `text/html${HOSTILE}`, text: HOSTILE }, redirectURL: '', headersSize: -1, bodySize: 1 },
            cache: {},
            timings: { blocked: 0, dns: 0, connect: 0, send: 0, wait: 0, receive: 0, ssl: 0 },
            _resourceType: 'Document',
          },
        ],
        _afr: { requests_seen: 1, dropped_requests: 0, truncated_headers: 0, omitted_bodies: {}, withheld_values: 0, masked_spans: 0 },
      },
    },
    hasTimeline: true,
  };
}
