/*
 * The only way page text enters a generated script: one quoting function per language (Playwright's
 * codegen does the same, a `quote()` per language). Every function returns pure printable ASCII, so no
 * character of the page (a quote, a backtick, `${`, a line break, U+2028, NUL, a bidi control, `</script>`)
 * can end the literal or the comment it is in, whatever the language makes of it.
 */

const hex4 = (code: number) => code.toString(16).padStart(4, '0');

/**
 * JSON text with every UTF-16 unit past ASCII as `\uXXXX`, `<` too so `</script>` stays inert. JSON
 * already escapes the controls inside strings; the line breaks left are the layout's, between tokens.
 */
function asciiJs(json: string): string {
  return json.replace(/[\u007f-\uffff]|</g, (c) => `\\u${hex4(c.charCodeAt(0))}`);
}

/**
 * A TypeScript / JavaScript string literal: JSON's escaping (quotes, backslashes, controls), in double
 * quotes, so backticks and `${` are plain characters; then everything else escaped to ASCII.
 * @example tsString('a"b`${c}') // '"a\\"b`${c}"'
 */
export function tsString(text: string): string {
  return asciiJs(JSON.stringify(text));
}

/** JSON text of any value, ASCII only (a DevTools flow, data embedded in a TypeScript script). */
export function asciiJson(value: unknown, indent?: number): string {
  return asciiJs(JSON.stringify(value, null, indent));
}

/**
 * A Python string literal (double quotes; not raw, not triple): backslash, quote and every character
 * outside printable ASCII escaped (`\x00`, `\u2028`, `\U0001f600`), so `"""` and line breaks stay inside it.
 * @example pyString('say """hi"""\n') // '"say \\"\\"\\"hi\\"\\"\\"\\n"'
 */
export function pyString(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '\\') out += '\\\\';
    else if (char === '"') out += '\\"';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code >= 0x20 && code <= 0x7e) out += char;
    else if (code <= 0xff) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code <= 0xffff) out += `\\u${hex4(code)}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/**
 * Text for a line comment (`//` or `#`): one line of printable ASCII, other characters as `\uXXXX`. A
 * line break (U+2028 ends a JavaScript line too) cannot end the comment and start code; `*\/` is
 * harmless in a line comment but written apart anyway.
 */
export function commentText(text: string, max = 200): string {
  const chars = Array.from(text);
  const cut = chars.length > max ? `${chars.slice(0, max).join('')}...` : text;
  return cut.replace(/[^\x20-\x7e]/g, (c) => `\\u${hex4(c.charCodeAt(0))}`).replace(/\*\//g, '* /');
}
