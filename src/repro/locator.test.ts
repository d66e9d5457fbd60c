import { describe, expect, it } from 'vitest';
import { describeLocator, isSemantic, locatorChoices } from './locator';

describe('locatorChoices', () => {
  it.each([
    ['a button: role and name, then CSS', { tag: 'button', role: 'button', name: 'Checkout', selector: '#checkout' }, ['role', 'css']],
    ['a test id first', { tag: 'button', role: 'button', name: 'Pay', selector: 'form > [data-testid="pay"]' }, ['testid', 'role', 'css']],
    ['a field with no known role: its label', { tag: 'input', name: 'Card', selector: 'input[name="card"]' }, ['label', 'css']],
    ['an element with no role: its text', { tag: 'div', name: 'Open menu', selector: 'div:nth-of-type(2)' }, ['text', 'css']],
    ['a masked name is no locator', { tag: 'input', role: 'textbox', name: 'Send to [email]', selector: '#to' }, ['css']],
    ['an unknown role is not written as one', { tag: 'x-widget', role: 'made-up', name: 'Go', selector: 'x-widget' }, ['text', 'css']],
    ['nothing usable', { tag: 'div', name: '[redacted 8+]', selector: '[redacted]' }, []],
  ])('%s', (_name, target, kinds) => {
    expect(locatorChoices(target).map((c) => c.kind)).toEqual(kinds);
  });

  it('reads the test id unescaped', () => {
    expect(locatorChoices({ tag: 'a', selector: '[data-testid="say \\"hi\\""]' })[0]).toEqual({ kind: 'testid', value: 'say "hi"' });
  });

  it('a step found by CSS only is not semantic', () => {
    expect(isSemantic(locatorChoices({ tag: 'div', selector: '#x' }))).toBe(false);
    expect(isSemantic(locatorChoices({ tag: 'a', role: 'link', name: 'Home', selector: '#x' }))).toBe(true);
    expect(describeLocator({ kind: 'role', role: 'link', name: 'Home' })).toBe('link "Home"');
  });
});
