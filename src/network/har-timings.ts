/** CDP's `Network.ResourceTiming`: `requestTime` in seconds (monotonic), the rest in ms after it (-1: did not happen). */
export interface CdpTiming {
  requestTime: number;
  dnsStart: number;
  dnsEnd: number;
  connectStart: number;
  connectEnd: number;
  sslStart: number;
  sslEnd: number;
  sendStart: number;
  sendEnd: number;
  receiveHeadersEnd: number;
}

/** HAR's `timings`; -1 for a phase that did not happen (`dns`, `connect`, `ssl` on a reused connection). */
export interface HarTimings {
  blocked: number;
  dns: number;
  connect: number;
  send: number;
  wait: number;
  receive: number;
  ssl: number;
}

const round = (ms: number) => Math.round(Math.max(0, ms) * 1000) / 1000;
const span = (start: number, end: number) => (start >= 0 && end >= start ? round(end - start) : -1);

/** Reads a `ResourceTiming` out of an event's `response.timing`, or null when it is missing or malformed. */
export function cdpTiming(value: unknown): CdpTiming | null {
  if (typeof value !== 'object' || value === null) return null;
  const t = value as Record<string, unknown>;
  const keys = ['requestTime', 'dnsStart', 'dnsEnd', 'connectStart', 'connectEnd', 'sslStart', 'sslEnd', 'sendStart', 'sendEnd', 'receiveHeadersEnd'] as const;
  if (keys.some((k) => typeof t[k] !== 'number' || !Number.isFinite(t[k]))) return null;
  return Object.fromEntries(keys.map((k) => [k, t[k]])) as unknown as CdpTiming;
}

/**
 * HAR timings of a request sent at `started` and ended at `ended` (CDP monotonic seconds), with the
 * browser's `timing` when it sent one (no timing: a cached answer, a failure before sending; the whole
 * time is then `wait`). `time` is their sum, as HAR requires (phases of -1 and `ssl`, which `connect`
 * includes, left out).
 */
export function harTimings(started: number, ended: number | null, timing: CdpTiming | null): { timings: HarTimings; time: number } {
  const total = ended !== null && ended >= started ? (ended - started) * 1000 : 0;
  if (!timing) {
    const timings = { blocked: 0, dns: -1, connect: -1, send: 0, wait: round(total), receive: 0, ssl: -1 };
    return { timings, time: timings.wait };
  }
  const queued = (timing.requestTime - started) * 1000;
  const firstPhase = [timing.dnsStart, timing.connectStart, timing.sendStart].find((t) => t >= 0) ?? 0;
  const end = ended !== null ? (ended - timing.requestTime) * 1000 : timing.receiveHeadersEnd;
  const timings: HarTimings = {
    blocked: round(queued + firstPhase),
    dns: span(timing.dnsStart, timing.dnsEnd),
    connect: span(timing.connectStart, timing.connectEnd),
    ssl: span(timing.sslStart, timing.sslEnd),
    send: round(timing.sendEnd - timing.sendStart),
    wait: round(timing.receiveHeadersEnd - timing.sendEnd),
    receive: round(end - timing.receiveHeadersEnd),
  };
  const time = [timings.blocked, timings.dns, timings.connect, timings.send, timings.wait, timings.receive].filter((t) => t > 0).reduce((a, b) => a + b, 0);
  return { timings, time: round(time) };
}
