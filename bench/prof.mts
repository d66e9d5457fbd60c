import { withRecorder, pause } from './support';
import { formWorkload } from './slowdown';
import { startSiteServer } from '../e2e/support/site-server';
const site = await startSiteServer();
await withRecorder({}, async (b, page) => {
  await page.goto(`${site.origin}/index.html`);
  await pause(1000);
  await page.goto(`${site.origin}/checkout.html`);
  const cdp = await b.context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const ms = await formWorkload(page, site, 0);
  const { profile } = await cdp.send('Profiler.stop') as any;
  console.log('workload ms', Math.round(ms));
  const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
  const self = new Map<number, number>();
  const dt = profile.timeDeltas as number[];
  profile.samples.forEach((id: number, i: number) => self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0)));
  const agg = new Map<string, number>(); const byUrl = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id); const cf = n.callFrame;
    const url = cf.url.replace(/^chrome-extension:\/\/[a-z]+\//, 'ext:/').replace(/^http:\/\/[^/]+/, 'site');
    const k = `${cf.functionName || '(anon)'} ${url}:${cf.lineNumber}`;
    agg.set(k, (agg.get(k) ?? 0) + us); byUrl.set(url || cf.functionName, (byUrl.get(url || cf.functionName) ?? 0) + us);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log('total profiled ms', Math.round(total / 1000));
  for (const [k, v] of [...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log('URL', Math.round(v / 1000), k);
  for (const [k, v] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(Math.round(v / 1000), k);
  // inclusive time for ext functions
  const children = new Map<number, number[]>(profile.nodes.map((n: any) => [n.id, n.children ?? []]));
  const incl = (id: number): number => (self.get(id) ?? 0) + (children.get(id) ?? []).reduce((a, c) => a + incl(c), 0);
  const inclAgg = new Map<string, number>();
  for (const n of profile.nodes) { if (!/chrome-extension/.test(n.callFrame.url)) continue; const parent = profile.nodes.find((p: any) => (p.children ?? []).includes(n.id)); if (parent && /chrome-extension/.test(parent.callFrame.url)) continue; const k = `${n.callFrame.functionName || '(anon)'}:${n.callFrame.lineNumber}`; inclAgg.set(k, (inclAgg.get(k) ?? 0) + incl(n.id)); }
  for (const [k, v] of [...inclAgg].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log('ENTRY', Math.round(v / 1000), k);
});
await site.close();
