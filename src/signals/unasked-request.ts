/**
 * A request nobody asked for: the browser fetches `/favicon.ico` at a page's origin on its own when
 * the page names no icon, so a site without one answers 404 on every page. That is not the page
 * failing, nor the agent: it makes no signal (neither a failure nor a red entry on the timeline). A 5xx
 * answer to it is still the server failing, so `status` from 500 up keeps its signal (`null`: no answer).
 * @example isUnaskedRequest('http://127.0.0.1:4173/favicon.ico', 404) // true
 * @example isUnaskedRequest('http://127.0.0.1:4173/favicon.ico', 503) // false
 */
export function isUnaskedRequest(url: string, status: number | null): boolean {
  if (status !== null && status >= 500) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.pathname === '/favicon.ico';
}
