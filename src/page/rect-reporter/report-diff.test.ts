import { describe, expect, it } from 'vitest';
import type { SensitiveRectsMessage } from '../../../schemas/messages';
import { decideReport, type ReportDecision, type ReportDiffContext, type SentReport } from './report-diff';

type Report = Pick<SensitiveRectsMessage, 'url' | 'viewport' | 'device_pixel_ratio' | 'rects' | 'scroll'>;
const A = { x: 10, y: 20, width: 100, height: 30 };
const B = { x: 10, y: 60, width: 100, height: 30 };
const report = (patch: Partial<Report> = {}): Report => ({
  url: 'https://example.com/',
  viewport: { width: 800, height: 600 },
  device_pixel_ratio: 1,
  rects: [A, B],
  scroll: { x: 0, y: 0 },
  ...patch,
});
const ctx: ReportDiffContext = { force: false, now: 1_000, resendMs: 3_000, fewerDelayMs: 300, fewerSince: null };
/** What the reporter remembers after sending `r` at `at`. */
const sent = (r: Report, at = 0): SentReport => (decideReport(null, r, { ...ctx, now: at }) as Extract<ReportDecision, { send: 'now' }>).sent;

describe('decideReport', () => {
  it.each<[string, ReportDecision['send'], SentReport | null, Report, Partial<ReportDiffContext>, number?]>([
    ['the first report', 'now', null, report(), {}],
    ['an unchanged report', 'nothing', sent(report()), report(), {}],
    ['an unchanged report, resend due', 'now', sent(report()), report(), { now: 3_000 }],
    ['an unchanged report, just before the resend', 'nothing', sent(report()), report(), { now: 2_999 }],
    ['an unchanged report, forced', 'now', sent(report()), report(), { force: true }],
    ['a scroll with regions', 'now', sent(report()), report({ scroll: { x: 0, y: 5 } }), {}],
    ['a scroll without regions', 'nothing', sent(report({ rects: [] })), report({ rects: [], scroll: { x: 0, y: 5 } }), {}],
    ['a region added', 'now', sent(report({ rects: [A] })), report(), {}],
    ['a region moved', 'now', sent(report()), report({ rects: [A, { ...B, y: 61 }] }), {}],
    ['a region dropped and one moved', 'now', sent(report()), report({ rects: [{ ...A, x: 11 }] }), {}],
    ['the same regions in another order', 'now', sent(report()), report({ rects: [B, A] }), {}],
    ['a region dropped', 'later', sent(report()), report({ rects: [A] }), {}, 300],
    ['every region dropped', 'later', sent(report()), report({ rects: [] }), {}, 300],
    ['a region dropped, fewer for 100 ms already', 'later', sent(report()), report({ rects: [A] }), { fewerSince: 900 }, 200],
    ['a region dropped, fewer for fewerDelayMs', 'now', sent(report()), report({ rects: [A] }), { fewerSince: 700 }],
    ['a region dropped, no delay', 'now', sent(report()), report({ rects: [A] }), { fewerDelayMs: 0 }],
    ['a region dropped, forced', 'now', sent(report()), report({ rects: [A] }), { force: true }],
    ['a region dropped as the viewport changed', 'now', sent(report()), report({ rects: [A], viewport: { width: 810, height: 600 } }), {}],
    ['a region dropped on another URL', 'now', sent(report()), report({ rects: [A], url: 'https://example.com/next' }), {}],
    ['a region dropped at another pixel ratio', 'now', sent(report()), report({ rects: [A], device_pixel_ratio: 2 }), {}],
  ])('%s: %s', (_name, send, last, next, patch, inMs) => {
    const decision = decideReport(last, next, { ...ctx, ...patch });
    expect(decision.send).toBe(send);
    if (decision.send === 'later') expect(decision.inMs).toBe(inMs);
  });

  it('waits from when the regions were first seen fewer, and remembers what it sends', () => {
    const last = sent(report());
    expect(decideReport(last, report({ rects: [A] }), ctx)).toEqual({ send: 'later', since: 1_000, inMs: 300 });
    expect(decideReport(last, report({ rects: [A] }), { ...ctx, now: 1_100, fewerSince: 1_000 })).toEqual({ send: 'later', since: 1_000, inMs: 200 });
    expect(decideReport(last, report({ rects: [A] }), { ...ctx, force: true })).toEqual({
      send: 'now',
      sent: { key: expect.any(String), shape: last.shape, rects: new Set(['10,20,100,30']), at: 1_000 },
    });
  });
});
