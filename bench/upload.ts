/**
 * `npm run bench:upload`: delivery to object storage, printed, never asserted. The built extension in
 * Chromium delivers to a real S3-protocol server on loopback (s3rver behind the test front that checks
 * signatures, `e2e/support/s3-store.ts`):
 *   1. bundle stored (`afr.fail` resolved) → its zip visible in the bucket (the PUT answered 200), and
 *      → its index object visible: the median of BENCH_UPLOAD_ROUNDS (default 10) bundles one at a time;
 *   2. a burst of 10 failures: bundles delivered per second, from the first stored to the last index
 *      object written;
 *   3. agent slowdown while uploading: the workload of `npm run bench` section 3 (200 actions on the
 *      checkout form, as fast as Playwright goes) with delivery idle, and with uploads in flight (3
 *      bundles made just before, the store reading them slowly enough to last the whole run: their
 *      bytes over 1.5 times the last idle run, as over a slow link, so that the worker is sending all
 *      along); BENCH_REPS (default 3) runs of each, interleaved; the ratio of the medians and the
 *      median of each round's ratio.
 * Loopback and one machine: the store's own latency is near zero, so the figures are the recorder's
 * (hashing, signing, IndexedDB, the worker's scheduling) plus s3rver's disk writes.
 */
import { afr } from '../e2e/support/afr';
import { launchWithRecorder } from '../e2e/support/launch';
import { S3_CREDENTIALS, startS3Store } from '../e2e/support/s3-store';
import { startSiteServer } from '../e2e/support/site-server';
import { UploadSettingsSchema } from '../schemas/upload';
import { formWorkload } from './slowdown';

const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 10);
const BURST = 10;
const REPS = Number(process.env.BENCH_REPS ?? 3);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const [recorder, store, site] = await Promise.all([launchWithRecorder(), startS3Store(), startSiteServer()]);
try {
  const page = await recorder.context.newPage();
  await page.goto(`${site.origin}/index.html`);
  await afr(recorder.worker, 'configure', {
    autoDownload: false,
    failureCooldownMs: 0,
    postFailureSeconds: 0,
    upload: UploadSettingsSchema.parse({
      mode: 's3',
      s3: { endpoint: store.endpoint, bucket: store.bucket, region: S3_CREDENTIALS.region, prefix: 'bench', accessKeyId: S3_CREDENTIALS.accessKeyId, secretAccessKey: S3_CREDENTIALS.secretAccessKey },
    }),
  } as never);
  // A few seconds of frames, as a failure would have.
  await pause(4_000);

  /** When the store answered 200 to the PUT of `id`'s object of this extension. */
  const answeredAt = async (id: string, ext: '.zip' | '.json', timeoutMs = 60_000): Promise<number> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const put = store.requests.find((r) => r.method === 'PUT' && r.status === 200 && r.path.split('?')[0]!.endsWith(`${id}${ext}`));
      if (put) return put.at;
      if (Date.now() > deadline) throw new Error(`${id}${ext} not in the bucket after ${timeoutMs} ms`);
      await pause(5);
    }
  };

  const toZip: number[] = [];
  const toIndex: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const id = await afr(recorder.worker, 'fail', { reason: 'bench_upload' });
    const stored = Date.now();
    toZip.push((await answeredAt(id, '.zip')) - stored);
    toIndex.push((await answeredAt(id, '.json')) - stored);
    sizes.push((await afr(recorder.worker, 'listBundles')).find((b) => b.id === id)!.sizeBytes);
    await pause(1_000);
  }
  console.log(`1. bundle stored → zip in the bucket: median ${median(toZip).toFixed(0)} ms (min ${Math.min(...toZip)}, max ${Math.max(...toZip)}, n=${ROUNDS})`);
  console.log(`   bundle stored → index object in the bucket: median ${median(toIndex).toFixed(0)} ms (min ${Math.min(...toIndex)}, max ${Math.max(...toIndex)})`);
  console.log(`   bundle size: median ${(median(sizes) / 1024 / 1024).toFixed(2)} MiB`);

  const first = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < BURST; i++) ids.push(await afr(recorder.worker, 'fail', { reason: 'bench_burst' }));
  const last = Math.max(...(await Promise.all(ids.map((id) => answeredAt(id, '.json', 120_000)))));
  console.log(`2. burst of ${BURST} failures: ${((BURST * 1000) / (last - first)).toFixed(1)} bundles delivered a second (${last - first} ms from the first fail to the last index object)`);

  const idle: number[] = [];
  const busy: number[] = [];
  let coveredToTheEnd = 0;
  const slowSizes: number[] = [];
  const workPage = await recorder.context.newPage();
  await workPage.bringToFront();
  for (let rep = 0; rep < REPS; rep++) {
    // Alternating which goes first, so that a spell of load on the shared machine hits both alike.
    for (const uploading of rep % 2 ? [true, false] : [false, true]) {
      if (!uploading) {
        idle.push(await formWorkload(workPage, site, 0));
        continue;
      }
      store.throttle(50_000); // slow from the first byte; set to last the run once the sizes are known
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await afr(recorder.worker, 'fail', { reason: 'bench_slowdown' }));
      const listed = await afr(recorder.worker, 'listBundles');
      for (const id of ids) slowSizes.push(listed.find((b) => b.id === id)?.sizeBytes ?? 0);
      const bytes = slowSizes.slice(-ids.length).reduce((a, b) => a + b, 0);
      store.throttle(Math.max(10_000, bytes / ((1.5 * (idle.at(-1) ?? 8_000)) / 1000)));
      const deadline = Date.now() + 30_000;
      while (store.inFlight() === 0 && Date.now() < deadline) await pause(5);
      busy.push(await formWorkload(workPage, site, 0));
      if (store.inFlight() > 0) coveredToTheEnd++;
      store.throttle(null);
      await Promise.all(ids.map((id) => answeredAt(id, '.json', 120_000)));
    }
  }
  const paired = busy.map((ms, i) => ms / idle[i]!);
  console.log(
    `3. agent slowdown while uploading (200 actions): idle ${median(idle).toFixed(0)} ms, uploading ${median(busy).toFixed(0)} ms; ratio ${(median(busy) / median(idle)).toFixed(3)} (paired ${median(paired).toFixed(3)}, n=${REPS}); an upload still in flight at the end of ${coveredToTheEnd} of ${REPS} runs; ${(median(slowSizes) / 1024).toFixed(0)} KiB a bundle`,
  );
} finally {
  await Promise.all([recorder.close(), store.close(), site.close()]);
}
