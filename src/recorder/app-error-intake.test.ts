import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { StepsFileSchema } from '../../schemas/steps';
import { requestEvents, type FakeRequest } from '../../test/fakes/cdp-network';
import { setupRecorder, T0 } from '../../test/fakes/recorder';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXNlY3JldA';
const ANSWER = JSON.stringify({ error: 'token_expired', refresh_token: TOKEN });
const orders: FakeRequest = { id: 'o1', url: 'https://shop.test/api/orders?page=1', at: T0 / 1000, headers: { Authorization: `Bearer ${TOKEN}` } };
const page = () => 'https://shop.test/orders';
/** The body reads answer at once: a turn of the event loop ends them. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup() {
  const fake = setupRecorder({ networkBodies: { responseBody: async () => ({ body: ANSWER, base64Encoded: false }) } });
  const play = async (r: FakeRequest) => {
    for (const [method, params] of requestEvents(r)) await fake.recorder.handleCdpEvent(7, method, params, page);
    await settle();
  };
  return { ...fake, play };
}

describe('app_error through the recorder', () => {
  it('puts a 200 that says it failed on the timeline by default, with its request and masked excerpt', async () => {
    const { recorder, ports, clock, play } = setup();
    await recorder.start();
    await play(orders);
    expect(await ports.bundles.list()).toHaveLength(0);
    const [step] = (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal');
    expect(step).toMatchObject({
      action: 'signal: app_error',
      url: 'https://shop.test/orders',
      detail: {
        signal_kind: 'app_error',
        disposition: 'record',
        status: 200,
        method: 'GET',
        request_url: 'https://shop.test/api/orders?page=1',
        resource_type: 'Fetch',
        request_id: 'o1',
        // Withheld by its name where the body was read, and masked again with the signal's text.
        excerpt: '{"error":"token_expired","refresh_token":"[credential]"}',
      },
    });
    expect(JSON.stringify(step)).not.toContain(TOKEN.slice(-16));
    recorder.loop.stop();
  });

  it('makes a bundle when its rule triggers, the step linked to its network.har entry', async () => {
    const { recorder, ports, operator, play } = setup();
    await recorder.start();
    await operator.configure({ signals: { app_error: { action: 'trigger' } } });
    await play({ ...orders, id: 'd1', url: 'https://shop.test/orders', type: 'Document', mimeType: 'text/html' });
    await play(orders);
    // The signal comes once the body is read, outside the event's handling: its bundle a moment later.
    await expect.poll(async () => (await ports.bundles.list()).length).toBe(1);
    const [bundle] = await ports.bundles.list();
    expect(bundle).toMatchObject({ reason: 'app_error', tabId: 7 });
    const zip = await JSZip.loadAsync((await ports.bundles.read(bundle!.id))!);
    const steps = StepsFileSchema.parse(JSON.parse(await zip.file('steps.json')!.async('string'))).steps;
    const step = steps.find((s) => s.detail?.signal_kind === 'app_error');
    expect(step?.detail).toMatchObject({ disposition: 'trigger', request_id: 'o1', har_entry: 1 });
    const har = JSON.parse(await zip.file('network.har')!.async('string')) as { log: { entries: { request: { url: string } }[] } };
    expect(har.log.entries[1]!.request.url).toBe('https://shop.test/api/orders?page=1');
    const manifest = JSON.parse(await zip.file('manifest.json')!.async('string')) as { failure_reason: string };
    expect(manifest.failure_reason).toBe('app_error');
    for (const name of Object.keys(zip.files)) expect(await zip.file(name)!.async('string')).not.toContain(TOKEN.slice(-16));
    recorder.loop.stop();
  });

  it('reads no answer with the rule switched off and network.bodies off', async () => {
    let reads = 0;
    const fake = setupRecorder({ networkBodies: { responseBody: async () => (reads++, { body: ANSWER, base64Encoded: false }) } });
    await fake.recorder.start();
    await fake.operator.configure({ signals: { app_error: { enabled: false } }, network: { bodies: 'off' } });
    for (const [method, params] of requestEvents(orders)) await fake.recorder.handleCdpEvent(7, method, params, page);
    await settle();
    expect(reads).toBe(0);
    expect((await fake.ports.stepLog.between(7, 0, fake.clock.t + 1)).filter((s) => s.kind === 'signal')).toEqual([]);
    fake.recorder.loop.stop();
  });
});
