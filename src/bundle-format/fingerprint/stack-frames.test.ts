import { describe, expect, it } from 'vitest';
import { inAppFrames } from './stack-frames';

describe('inAppFrames', () => {
  it('keeps the site frames of a V8 stack, file templated, no line or column', () => {
    const stack = [
      "TypeError: Cannot read properties of undefined (reading 'total')",
      '    at computeTotal (https://shop.test/static/app.3f9a8b7c.js:120:17)',
      '    at async submitOrder (https://shop.test/static/app.3f9a8b7c.js:88:5)',
      '    at chrome-extension://abcdefghijklmnop/content.js:1:1',
      '    at <anonymous>',
      '    at https://shop.test/orders/8812/inline.js:3:9',
      '    at HTMLButtonElement.onclick (https://shop.test/checkout:1:1)',
    ].join('\n');
    expect(inAppFrames(stack)).toEqual(['computeTotal @ shop.test/static/app.{hash}.js', 'submitOrder @ shop.test/static/app.{hash}.js', '<anonymous> @ shop.test/orders/{n}/inline.js']);
  });

  it('reads Firefox and Safari frames', () => {
    expect(inAppFrames('computeTotal@https://shop.test/app.js:12:3\n@https://shop.test/app.js:40:1')).toEqual(['computeTotal @ shop.test/app.js', '<anonymous> @ shop.test/app.js']);
  });

  it('has none without a stack or without site frames', () => {
    expect(inAppFrames(null)).toEqual([]);
    expect(inAppFrames('Error: x\n    at node:internal/process:1:1')).toEqual([]);
  });
});
