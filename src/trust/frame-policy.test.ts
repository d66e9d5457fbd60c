import { describe, expect, it } from 'vitest';
import { frameMayCommand } from './frame-policy';

describe('frameMayCommand', () => {
  it.each([
    { name: 'the top frame', frameId: 0, frameOrigin: 'https://shop.test', allowed: [], want: true },
    { name: 'the top frame, origin unknown', frameId: 0, frameOrigin: null, allowed: [], want: true },
    { name: 'a cross-origin iframe', frameId: 4, frameOrigin: 'https://ads.test', allowed: [], want: false },
    { name: 'a same-origin iframe', frameId: 4, frameOrigin: 'https://shop.test', allowed: [], want: false },
    { name: 'an allow-listed iframe', frameId: 4, frameOrigin: 'https://agent.test', allowed: ['https://agent.test'], want: true },
    { name: 'another origin than the allow-listed one', frameId: 4, frameOrigin: 'https://agent.test:8443', allowed: ['https://agent.test'], want: false },
    { name: 'an opaque origin, even if listed', frameId: 4, frameOrigin: 'null', allowed: ['null'], want: false },
    { name: 'an iframe whose origin is unknown', frameId: 4, frameOrigin: null, allowed: ['https://agent.test'], want: false },
    { name: 'no frame at all', frameId: null, frameOrigin: 'https://agent.test', allowed: ['https://agent.test'], want: false },
  ])('$name: $want', ({ frameId, frameOrigin, allowed, want }) => {
    expect(frameMayCommand({ frameId, frameOrigin }, allowed)).toBe(want);
  });
});
