import { templateUrl } from './template-url';

/*
 * The top frames of an exception's stack that belong to the site: `function @ file`, the file's URL
 * templated like a page's, no line or column (a new build moves them, the cause stays). Frames of the
 * browser, of extensions and of anonymous code are not the site's and are skipped.
 */

/** How many of the site's frames take part. */
export const IN_APP_FRAMES = 3;

/** V8: `    at fn (url:1:2)`, `    at url:1:2`, `    at async fn (url:1:2)`. */
const V8_FRAME = /^\s*at\s+(?:(.*?)\s+\()?((?:[a-z][\w+.-]*:)?[^()\s]*?)(?::\d+)?(?::\d+)?\)?\s*$/i;
/** Firefox and Safari: `fn@url:1:2`. */
const GECKO_FRAME = /^\s*(.*?)@(.*?)(?::\d+)?(?::\d+)?\s*$/;

function parseFrame(line: string): { fn: string; url: string } | null {
  const v8 = /^\s*at\s/.test(line) ? V8_FRAME.exec(line) : null;
  const match = v8 ?? (line.includes('@') ? GECKO_FRAME.exec(line) : null);
  if (!match) return null;
  const fn = (match[1] ?? '').replace(/^async\s+/, '').trim();
  return { fn: fn === '' ? '<anonymous>' : fn, url: match[2] ?? '' };
}

/**
 * The site's top frames of `stack`, as `fn @ host/path/file.js`.
 * @example inAppFrames('TypeError: x\n    at total (https://shop.test/app.3f9a8b7c.js:10:5)') // ['total @ shop.test/app.{hash}.js']
 */
export function inAppFrames(stack: string | null, count = IN_APP_FRAMES): string[] {
  if (stack === null) return [];
  const frames: string[] = [];
  for (const line of stack.split(/\r?\n/).slice(0, 200)) {
    const frame = parseFrame(line);
    if (!frame || !/^https?:\/\//i.test(frame.url)) continue;
    frames.push(`${frame.fn} @ ${templateUrl(frame.url)}`);
    if (frames.length === count) break;
  }
  return frames;
}
