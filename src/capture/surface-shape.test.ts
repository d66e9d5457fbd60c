import { describe, expect, it } from 'vitest';
import { hasSurfaceShape } from './surface-shape';

describe('hasSurfaceShape', () => {
  it.each([
    { name: 'the surface itself', image: { width: 1280, height: 720 }, surface: { width: 1280, height: 720 }, want: true },
    { name: 'at device scale 2', image: { width: 2560, height: 1440 }, surface: { width: 1280, height: 720 }, want: true },
    { name: 'within rounding', image: { width: 1280, height: 723 }, surface: { width: 1280, height: 720 }, want: true },
    { name: 'past rounding', image: { width: 1280, height: 724 }, surface: { width: 1280, height: 720 }, want: false },
    { name: 'a taller picture than the surface says', image: { width: 1280, height: 720 }, surface: { width: 1280, height: 633 }, want: false },
  ])('$name', ({ image, surface, want }) => {
    expect(hasSurfaceShape(image, surface)).toBe(want);
  });
});
