/**
 * `npx tsx bench/network-log.ts`: what the network log costs per request in the service worker,
 * printed as medians, never asserted: the four CDP events of one request (sent, extra headers,
 * response, finished) with a browser's usual headers (14 sent, 10 received, a cookie and a Bearer),
 * masked and kept; then the masking of a 2 KiB JSON answer (`captureBody`), which a kept body adds,
 * and the `app_error` look at a masked answer (`findAppError`): one naming none of the rule's fields,
 * one naming `status` (parsed, not a failure) and one saying `error`; then a busy page, a page polling a
 * JSON API 10 times a second for a minute with the default settings (its answers kept): the log's
 * time per request with its body, the bytes it holds once its window is full, and the size and build
 * time of the `network.har` of a minute and of a bundle's window. Prints the load average: these
 * machines are shared.
 * BENCH_ROUNDS (default 15) rounds of BENCH_REQUESTS (default 2,000) requests.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { NetworkSettingsSchema } from '../schemas/network';
import { BUILT_IN_MASKER } from '../src/redact/mask-text';
import { findAppError } from '../src/network/app-error';
import { captureBody } from '../src/network/body-capture';
import { NetworkLog } from '../src/network/network-log';
import { maskContext } from '../src/network/withheld-value';
import { requestEvents } from '../test/fakes/cdp-network';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const headers = {
  Accept: 'application/json, text/plain, */*',
  'Accept-Encoding': 'gzip, deflate, br, zstd',
  'Accept-Language': 'en-GB,en;q=0.9',
  Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXNlY3JldA',
  Cookie: 'sid=3f9a8b7c6d5e4f3a2b1c; theme=dark; consent=yes',
  Referer: 'https://shop.example/orders?page=2',
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  'sec-ch-ua': '"Chromium";v="156", "Not_A Brand";v="24"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Linux"',
  'Sec-Fetch-Dest': 'empty',
  'Sec-Fetch-Mode': 'cors',
  'Sec-Fetch-Site': 'same-origin',
  'X-Request-Id': 'req-0001',
};
const responseHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  date: 'Sat, 28 Nov 2026 12:00:00 GMT',
  etag: 'W/"1f-abc"',
  server: 'nginx',
  vary: 'Accept-Encoding',
  'x-frame-options': 'DENY',
  'strict-transport-security': 'max-age=31536000',
  'content-security-policy': "default-src 'self'",
  connection: 'keep-alive',
};

const network = NetworkSettingsSchema.parse({ bodies: 'off' });
const T0 = Date.now() / 1000;
const perRequest: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const log = new NetworkLog({ clock: { now: () => Date.now() }, masker: () => BUILT_IN_MASKER, settings: () => ({ network, bufferSeconds: 15, postFailureSeconds: 2 }) });
  const events = Array.from({ length: REQUESTS }, (_, i) =>
    requestEvents({ id: `r${round}-${i}`, url: `https://shop.example/api/orders/${i}?page=${i % 5}`, at: T0 + i / 1000, headers, responseHeaders, extraResponseHeaders: { 'set-cookie': 'sid=3f9a8b7c6d5e4f3a2b1c; Path=/; HttpOnly' } }),
  );
  const start = performance.now();
  for (const request of events) for (const [method, params] of request) log.handleEvent(1, method, params);
  perRequest.push(((performance.now() - start) * 1000) / REQUESTS);
}

const answer = JSON.stringify({
  orders: Array.from({ length: 12 }, (_, i) => ({ id: `A-${1000 + i}`, total: 42.5 + i, status: 'shipped', items: [{ sku: `SKU-${i}`, qty: 1 }], customer: { name: 'Ada Lovelace' } })),
  next: '/api/orders?page=3',
});
const perBody: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const start = performance.now();
  for (let i = 0; i < 200; i++) await captureBody({ body: answer, base64Encoded: false }, 'application/json', 256 * 1024, maskContext(BUILT_IN_MASKER));
  perBody.push(((performance.now() - start) * 1000) / 200);
}

const looks: Record<string, string> = {
  'naming no field': JSON.stringify({ orders: JSON.parse(answer).orders.map(({ status: _s, ...o }: { status: string }) => o), next: null }),
  'naming status: shipped': answer,
  'saying error': JSON.stringify({ error: 'token_expired', hint: 'sign in again', ...JSON.parse(answer) }),
};
const perLook: Record<string, number[]> = {};
for (const [name, text] of Object.entries(looks)) {
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    for (let i = 0; i < 2_000; i++) findAppError(text, []);
    (perLook[name] ??= []).push(((performance.now() - start) * 1000) / 2_000);
  }
}

console.log(`network log, per request (4 CDP events, 14 + 10 headers, masked and kept): median ${median(perRequest).toFixed(1)} µs over ${ROUNDS} rounds of ${REQUESTS}`);
console.log(`JSON answer of ${answer.length} characters masked (captureBody): median ${median(perBody).toFixed(1)} µs`);
for (const [name, times] of Object.entries(perLook)) console.log(`app_error look at a masked answer of ${looks[name]!.length} characters ${name} (findAppError): median ${median(times).toFixed(1)} µs`);

// A busy page: a JSON API polled 10 times a second for a minute (600 requests), the default settings.
const POLLS = 600;
const poll = (i: number) => JSON.stringify({ seq: i, orders: JSON.parse(answer).orders.slice(0, 4), updated: new Date(T0 * 1000 + i * 100).toISOString() });
const pollBytes = Array.from({ length: POLLS }, (_, i) => poll(i).length).reduce((a, b) => a + b, 0);
/** A minute of polling through a log whose window is `bufferSeconds`, the clock moving with the polls. */
async function pollFor(base: number, bufferSeconds: number): Promise<{ log: NetworkLog; now: number; usPerRequest: number }> {
  let now = base * 1000;
  const log = new NetworkLog({
    clock: { now: () => now },
    masker: () => BUILT_IN_MASKER,
    settings: () => ({ network: NetworkSettingsSchema.parse({}), bufferSeconds, postFailureSeconds: 2 }),
    bodies: { responseBody: (_tab, id) => Promise.resolve({ body: poll(Number(id.split('-')[1])), base64Encoded: false }) },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
  const start = performance.now();
  for (let i = 0; i < POLLS; i++) {
    now = (base + i / 10) * 1000;
    for (const [method, params] of requestEvents({ id: `p-${i}`, url: `https://shop.example/api/orders/poll?since=${i}`, at: base + i / 10, headers, responseHeaders })) log.handleEvent(1, method, params);
    // The body read of this poll lands before the next poll, 100 ms later.
    for (let tick = 0; tick < 4; tick++) await Promise.resolve();
  }
  return { log, now, usPerRequest: ((performance.now() - start) * 1000) / POLLS };
}

const busyPerRequest: number[] = [];
const held: number[] = [];
const harOfMinute: { bytes: number; ms: number; kept: number }[] = [];
const harOfWindow: { bytes: number; ms: number; entries: number }[] = [];
for (let round = 0; round < Math.min(ROUNDS, 7); round++) {
  const base = T0 + round * 1000;
  const busy = await pollFor(base, 15);
  busyPerRequest.push(busy.usPerRequest);
  const windowStart = performance.now();
  const windowed = (await busy.log.har(1, busy.now - 15_000, busy.now, { name: 'bench', version: '0' }))!;
  harOfWindow.push({ bytes: JSON.stringify(windowed).length, ms: performance.now() - windowStart, entries: windowed.log.entries.length });
  held.push((await busy.log.har(1, base * 1000, busy.now, { name: 'bench', version: '0' }))!.log.entries.length);
  // The whole minute, as a log with a 5-minute window holds it: every poll's HAR entry.
  const long = await pollFor(base, 300);
  const minuteStart = performance.now();
  const minute = (await long.log.har(1, base * 1000 - 1, long.now, { name: 'bench', version: '0' }))!;
  harOfMinute.push({ bytes: JSON.stringify(minute).length, ms: performance.now() - minuteStart, kept: minute.log.entries.filter((e) => e.response.content.text !== undefined).length });
}
const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
console.log(`\nbusy page: a JSON API polled 10×/s (answers of ~${Math.round(pollBytes / POLLS)} characters), default settings, ${Math.min(ROUNDS, 7)} rounds`);
console.log(`  log per request, its answer read and masked: median ${median(busyPerRequest).toFixed(1)} µs`);
console.log(`  network.har of a minute (${POLLS} requests, ${median(harOfMinute.map((h) => h.kept))} bodies kept): median ${mb(median(harOfMinute.map((h) => h.bytes)))} (${mb(pollBytes)} of it answers), built in ${median(harOfMinute.map((h) => h.ms)).toFixed(1)} ms`);
console.log(`  held after a minute (15 s window + 2 s tail + 5 s spare): ${median(held)} requests; a bundle's 15 s window: ${median(harOfWindow.map((h) => h.entries))} entries, ${mb(median(harOfWindow.map((h) => h.bytes)))}, built in ${median(harOfWindow.map((h) => h.ms)).toFixed(1)} ms`);
console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(', ')} on ${os.cpus().length} cores`);
