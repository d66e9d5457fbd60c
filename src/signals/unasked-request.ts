/**
 * A request nobody asked for: the browser fetches `/favicon.ico` at a page's origin on its own when
 * the page names no icon, so a site without one answers 404 on every page. That is not the page
 * failing, nor the agent: it makes no signal (neither a failure nor a red entry on the timeline).
 * @example isUnaskedRequest('http://127.0.0.1:4173/favicon.ico') // true
 */
export function isUnaskedRequest(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.pathname === '/favicon.ico';
}
