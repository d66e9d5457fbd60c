// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { deepActiveElement, rememberFocusAtMeasure } from './focus-at-measure';

beforeEach(() => {
  document.body.innerHTML = '';
});

describe('deepActiveElement', () => {
  it('looks into open shadow roots', () => {
    document.body.innerHTML = '<div id="host"></div>';
    const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<input id="inner">';
    (shadow.getElementById('inner') as HTMLInputElement).focus();
    expect(deepActiveElement(document)).toBe(shadow.getElementById('inner'));
  });

  it('looks into same-origin iframes, and stops at another origin', () => {
    const inner = { localName: 'input' } as Element;
    const sameOrigin = { localName: 'iframe', contentDocument: { activeElement: inner } } as unknown as Element;
    expect(deepActiveElement({ activeElement: sameOrigin } as Document)).toBe(inner);
    const otherOrigin = {
      localName: 'iframe',
      get contentDocument(): Document {
        throw new DOMException('Blocked a frame', 'SecurityError');
      },
    } as unknown as Element;
    expect(deepActiveElement({ activeElement: otherOrigin } as Document)).toBe(otherOrigin);
  });

  it('is null with nothing focused', () => {
    expect(deepActiveElement({ activeElement: null } as Document)).toBeNull();
  });
});

describe('rememberFocusAtMeasure', () => {
  it('says typing only into the focused text field the last measurement saw focused', () => {
    document.body.innerHTML = '<input id="a" type="text"><input id="b" type="text"><input id="c" type="checkbox">';
    const [a, b, c] = ['a', 'b', 'c'].map((id) => document.getElementById(id) as HTMLInputElement);
    const focus = rememberFocusAtMeasure();
    a!.focus();
    expect(focus.typingInto(a!)).toBe(false); // not measured with the focus there yet
    focus.note(document);
    expect(focus.typingInto(a!)).toBe(true);
    expect(focus.typingInto(b!)).toBe(false);
    b!.focus();
    expect(focus.typingInto(b!)).toBe(false);
    c!.focus();
    focus.note(document);
    expect(focus.typingInto(c!)).toBe(false); // no text typed into a checkbox
  });
});
