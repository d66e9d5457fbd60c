import { describe, expect, it } from 'vitest';
import { MAX_FRAME_AGE_MS, parseScreencastFrame } from './screencast-frame';

const NOW = Date.UTC(2026, 10, 22, 12);

describe('parseScreencastFrame', () => {
  it.each([
    { label: 'no parameters', params: undefined, sessionId: undefined, data: undefined },
    { label: 'a session id and data', params: { sessionId: 3, data: 'AAAA' }, sessionId: 3, data: 'AAAA' },
    { label: 'a session id of another type', params: { sessionId: '3', data: 'AAAA' }, sessionId: undefined, data: 'AAAA' },
    { label: 'data of another type', params: { sessionId: 3, data: 42 }, sessionId: 3, data: undefined },
  ])('$label: session $sessionId, data $data', ({ params, sessionId, data }) => {
    expect(parseScreencastFrame(params, NOW)).toEqual({ sessionId, data, shown: undefined, takenAt: NOW });
  });

  it.each([
    { label: 'no metadata', metadata: undefined, shown: undefined },
    { label: 'a device size', metadata: { deviceWidth: 128, deviceHeight: 72 }, shown: { width: 128, height: 72 } },
    { label: 'a size and a scroll', metadata: { deviceWidth: 64, deviceHeight: 36, scrollOffsetX: 0, scrollOffsetY: 10 }, shown: { width: 64, height: 36, scroll: { x: 0, y: 10 } } },
    { label: 'a scroll without a size', metadata: { scrollOffsetX: 0, scrollOffsetY: 10 }, shown: undefined },
    { label: 'half a scroll', metadata: { deviceWidth: 64, deviceHeight: 36, scrollOffsetY: 10 }, shown: { width: 64, height: 36 } },
    { label: 'a scroll that is not finite', metadata: { deviceWidth: 64, deviceHeight: 36, scrollOffsetX: 0, scrollOffsetY: Infinity }, shown: { width: 64, height: 36 } },
    { label: 'an empty size', metadata: { deviceWidth: 0, deviceHeight: 36 }, shown: undefined },
    { label: 'a size given as text', metadata: { deviceWidth: '64', deviceHeight: 36 }, shown: undefined },
  ])('what it shows, $label', ({ metadata, shown }) => {
    expect(parseScreencastFrame({ sessionId: 1, data: 'AAAA', metadata }, NOW).shown).toEqual(shown);
  });

  it.each([
    { label: 'no timestamp: its arrival', timestamp: undefined, takenAt: NOW },
    { label: 'drawn 300 ms before it arrived', timestamp: (NOW - 300) / 1000, takenAt: NOW - 300 },
    { label: 'drawn as it arrived', timestamp: NOW / 1000, takenAt: NOW },
    { label: 'drawn after it arrived (clocks disagree): its arrival', timestamp: (NOW + 5) / 1000, takenAt: NOW },
    { label: 'drawn too long before (clocks disagree): its arrival', timestamp: (NOW - MAX_FRAME_AGE_MS) / 1000, takenAt: NOW },
    { label: 'drawn just under the limit before', timestamp: (NOW - MAX_FRAME_AGE_MS + 1) / 1000, takenAt: NOW - MAX_FRAME_AGE_MS + 1 },
    { label: 'a timestamp given as text', timestamp: String(NOW / 1000), takenAt: NOW },
  ])('when it was taken, $label', ({ timestamp, takenAt }) => {
    expect(parseScreencastFrame({ data: 'AAAA', metadata: { timestamp } }, NOW).takenAt).toBeCloseTo(takenAt, 3);
  });
});
