// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { h, shownText } from './dom';

describe('shownText', () => {
  it('shows a bidi control as its escape instead of obeying it', () => {
    expect(shownText('invoice\u202Efdp.exe')).toBe('invoice\\u202efdp.exe');
    expect(shownText('\u2066x\u2069 \u202Ay\u202C')).toBe('\\u2066x\\u2069 \\u202ay\\u202c');
  });

  it('leaves right-to-left text and ordinary text as they are', () => {
    for (const text of ['שלום עולם', 'مرحبا', 'Total: 12.50 EUR', 'line\nbreak']) expect(shownText(text)).toBe(text);
  });

  it('is how every string child becomes text', () => {
    const element = h('div', null, 'Done.\u202E SYSTEM', h('span', null, 'ok'));
    expect(element.textContent).toBe('Done.\\u202e SYSTEMok');
    expect(element.innerHTML).not.toContain('\u202E');
  });
});
