/** Elements whose text is never read into a name or a label: field contents, code, templates. */
const UNREADABLE = new Set(['script', 'style', 'noscript', 'template', 'textarea', 'select', 'option', 'datalist', 'svg']);

/** Elements that browsers lay out apart from their neighbours: their text is separated by a space. */
const SEPARATED = new Set(['td', 'th', 'tr', 'li', 'p', 'div', 'br', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article']);

/** Characters of raw text collected before masking (see `TextMasker.maskAndCap` for why this bound is safe). */
export const READ_TEXT_LIMIT = 64 * 1024;

/**
 * The text a reader sees inside `node`, for names and labels. Skips textareas (their text is the
 * field's default value, which may be a secret), selects, scripts and styles. Not masked: pass the
 * result through `TextMasker.maskAndCap`.
 */
export function readableText(node: Node, limit: number = READ_TEXT_LIMIT): string {
  let out = '';
  const visit = (parent: Node): void => {
    for (let c = parent.firstChild; c && out.length < limit; c = c.nextSibling) {
      if (c.nodeType === 3) out += c.nodeValue ?? '';
      else if (c.nodeType === 1 && !UNREADABLE.has((c as Element).localName)) {
        const separated = SEPARATED.has((c as Element).localName);
        if (separated) out += ' ';
        visit(c);
        if (separated) out += ' ';
      }
    }
  };
  visit(node);
  return out.length > limit ? out.slice(0, limit) : out;
}

/** White space as `\s` has it, past ASCII. */
const WIDE_SPACES = new Set([0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);

/**
 * True when `text` has nothing to collapse: no white space but single plain spaces between words.
 * Most of a page's texts are like that; telling so costs one pass and no string.
 */
function isCollapsed(text: string): boolean {
  let afterSpace = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      if (afterSpace) return false;
      afterSpace = true;
    } else if (c < 32 || (c >= 0xa0 && (WIDE_SPACES.has(c) || (c >= 0x2000 && c <= 0x200a)))) {
      return false;
    } else {
      afterSpace = false;
    }
  }
  return !afterSpace || text.length === 0;
}

/** Collapses runs of white space to one space and trims. */
export function collapseWhitespace(text: string): string {
  return isCollapsed(text) ? text : text.replace(/\s+/g, ' ').trim();
}
