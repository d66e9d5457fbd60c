import { describe, expect, it } from 'vitest';
import { BUNDLE_ID, T0, bundleContents, editBundle, editJson, makeBundle } from '../../test/fixtures/cli/make-bundle';
import { NotAZipError } from '../bundle-format/open-zip';
import { REDACTED, formatSteps, inspectionLines } from './format-inspection';
import { inspectBundle, type StepLine } from './inspect-bundle';
import { viewportCutWarning } from '../../schemas/viewport-cut';

const validZip = makeBundle();

describe('inspectBundle', () => {
  it('summarises the failure, the last steps, the errors, the frames and the clip', async () => {
    const inspection = await inspectBundle(await validZip);
    expect(inspection).toMatchObject({
      bundle_id: BUNDLE_ID,
      status: 'failure',
      failure: { reason: 'page_exception', label: 'checkout crashed', message: 'TypeError: cart is undefined', url: 'https://shop.test/checkout', time: '2026-11-22T12:00:00.000Z', tab_id: 7, kind: 'exception', origin: 'debugger', http_status: null },
      snapshot: { title: 'Checkout', node_count: 2 },
      frames: { count: 4, captures: 4, first_at: new Date(T0 - 4_000).toISOString(), span_seconds: 4, sizes: ['64x36', '48x32', '65x37', '33x51'] },
      clip: { encoder: 'ffmpeg/libx264-ultrafast', manifest_seconds: 1.5, mp4_seconds: 1.5 },
      bundle: { files: 10 },
      unreadable: [],
      complete: true,
    });
    expect(inspection.steps?.total).toBe(12);
    expect(inspection.steps?.last.map((s) => s.action)).toHaveLength(10);
    expect(inspection.steps?.last.at(-1)).toEqual({ at_ms: 0, source: 'recorder', kind: 'signal', action: 'failure: page_exception', target: null, value: null, value_redacted: false, outcome: 'fail', label: 'TypeError: cart is undefined' });
    expect(inspection.steps?.last.find((s) => s.target?.includes('#password'))).toMatchObject({ at_ms: -5_000, value: null, value_redacted: true, target: 'input "Password" #password' });
    expect(inspection.errors).toMatchObject({
      stack: ['TypeError: cart is undefined', '    at total (https://shop.test/app.js:10:5)', '    at submit (https://shop.test/app.js:20:3)'],
      warnings: ['frame 2 was captured late'],
      console_errors: [{ at_ms: -100, message: 'Uncaught TypeError: cart is undefined' }],
      failed_requests: [{ at_ms: -1_500, method: 'GET', status: 404 }],
      capture_errors: 2,
      quota_errors: 1,
      clip_error: null,
    });
  });

  it('counts the captures a frame stands for when identical ones in a row were stored once', async () => {
    const [first, ...rest] = bundleContents().frames;
    const inspection = await inspectBundle(await makeBundle({ frames: [{ ...first!, captures: 5, lastTs: first!.ts + 800 }, ...rest] }));
    expect(inspection.frames).toMatchObject({ count: 4, captures: 8, span_seconds: 4 });
    expect(inspectionLines(inspection).join('\n')).toContain('frames    4 (8 captures, identical ones in a row stored once) over 4.0 s');
  });

  it('prints it as text', async () => {
    const text = inspectionLines(await inspectBundle(await validZip)).join('\n');
    for (const expected of [
      BUNDLE_ID,
      'reason    page_exception (exception, debugger)',
      'label     checkout crashed',
      'message   TypeError: cart is undefined',
      'url       https://shop.test/checkout',
      'time      2026-11-22T12:00:00.000Z (recording starts 9.0 s before)',
      'tab       7',
      'Last 10 of 12 steps',
      'failure: page_exception',
      'stack     TypeError: cart is undefined',
      '          at total (https://shop.test/app.js:10:5)',
      'console   -0.10 s  Uncaught TypeError: cart is undefined',
      'request   -1.50 s  GET https://shop.test/api/cart → HTTP 404',
      'warning   frame 2 was captured late',
      'capture   2 capture errors, 1 over quota; last: Tabs cannot be edited right now',
      'frames    4 over 4.0 s from 2026-11-22T11:59:56.000Z',
      'clip      failure.mp4 1.50 s, manifest 1.50 s, ffmpeg/libx264-ultrafast',
      'bundle    ',
    ]) expect(text).toContain(expected);
    const stepLines = text.split('\n').filter((l) => /^ +[-+]?\d+\.\d\d {2}/.test(l));
    expect(stepLines).toHaveLength(10);
    expect(stepLines.at(-1)).toMatch(/^ {4}0\.00 {2}recorder {2}signal {4}failure: page_exception +→ fail {2}\[TypeError: cart is undefined\]$/);
    expect(stepLines.filter((l) => l.includes(REDACTED))).toHaveLength(2);
    expect(text).toContain('"Jane Doe"');
    expect(text).not.toContain('open the shop'); // the 2nd step of 12: not among the last 10
  });

  it('prints frames cut short by a small window on a line of their own, whole, with the switch that fixes it', async () => {
    const inspection = await inspectBundle(await validZip);
    const warning = viewportCutWarning({ viewport: { width: 1280, height: 720 }, shown: { width: 1280, height: 577 } }, 4, 4);
    inspection.errors!.warnings.push(warning);
    const lines = inspectionLines(inspection).join('\n').split('\n');
    expect(lines).toContain(`  cut       ${warning}`);
    expect(warning.length).toBeGreaterThan(200); // other warnings are cut at 200 characters
    expect(lines.filter((l) => l.includes('--silent-debugger-extension-api'))).toHaveLength(1);
  });

  it.each([
    [3, 3],
    [0, 12],
    [50, 12],
  ])('lists the last %i steps (0: all)', async (lastSteps, shown) => {
    const inspection = await inspectBundle(await validZip, { lastSteps, stackLines: 5, lastErrors: 5 });
    expect(inspection.steps?.last).toHaveLength(shown);
    expect(inspection.steps?.last.at(-1)?.action).toBe('failure: page_exception');
  });

  it('shows an HTTP failure without a clip, with the clip error', async () => {
    const contents = bundleContents({ clip: null });
    const diagnostics = contents.diagnostics!;
    const zip = await makeBundle({
      clip: null,
      manifest: { ...contents.manifest, failure_reason: 'http_5xx', clip: null },
      diagnostics: {
        ...diagnostics,
        failure: { ...diagnostics.failure, kind: 'http_5xx', reason: 'http_5xx', origin: 'web_request', http_status: 502, stack: null },
        clip_error: 'encoder timed out after 30 s',
      },
    });
    const text = inspectionLines(await inspectBundle(zip)).join('\n');
    expect(text).toContain('reason    http_5xx (web_request, HTTP 502)');
    expect(text).toContain('clip      encoder timed out after 30 s');
    expect(text).toContain('clip      none');
    expect(text).not.toContain('stack');
  });

  it('still inspects a bundle from an older or newer recorder', async () => {
    const zip = await editBundle(await validZip, (files) => {
      editJson(files, 'manifest.json', (m) => (m.added_later = { anything: true }));
      editJson(files, 'diagnostics.json', (d) => {
        delete d.console_errors;
        delete d.failed_requests;
        delete (d.failure as Record<string, unknown>).kind;
      });
      editJson(files, 'steps.json', (s) => ((s.steps as Record<string, unknown>[])[11]!.kind = 'teleport'));
    });
    const inspection = await inspectBundle(zip);
    expect(inspection.unreadable).toEqual([]);
    expect(inspection.failure).toMatchObject({ reason: 'page_exception', kind: null });
    expect(inspection.errors).toMatchObject({ console_errors: [], failed_requests: [] });
    expect(inspection.steps?.last.at(-1)?.kind).toBe('teleport');
  });

  it('names the files it cannot read and shows the rest', async () => {
    const zip = await editBundle(await validZip, (files) => {
      files.set('diagnostics.json', new TextEncoder().encode('{ oops'));
      files.delete('steps.json');
    });
    const inspection = await inspectBundle(zip);
    expect(inspection.unreadable.map((u) => u.file)).toEqual(['diagnostics.json', 'steps.json']);
    expect(inspection.complete).toBe(false);
    expect(inspection.errors).toBeNull();
    expect(inspection.steps).toBeNull();
    expect(inspection.failure?.reason).toBe('page_exception');
    const text = inspectionLines(inspection).join('\n');
    expect(text).toContain('Unreadable (run `afr validate` for details)');
    expect(text).toContain('steps.json: missing from the bundle');
    expect(text).not.toContain('Errors');
  });

  it.each<[string, (files: Map<string, Uint8Array>) => void, boolean]>([
    ['a snapshot.json nested 50,000 deep', (files) => files.set('snapshot.json', new TextEncoder().encode(`${'['.repeat(50_000)}${']'.repeat(50_000)}`)), false],
    ['a diagnostics.json that is not JSON', (files) => files.set('diagnostics.json', new TextEncoder().encode('{ oops')), false],
    ['no steps.json', (files) => files.delete('steps.json'), false],
    ['no snapshot.json nor diagnostics.json (left out below capture level trace)', (files) => (files.delete('snapshot.json'), files.delete('diagnostics.json')), true],
  ])('with %s, is complete: %s', async (_name, edit, complete) => {
    const inspection = await inspectBundle(await editBundle(await validZip, edit));
    expect(inspection.complete).toBe(complete);
    expect(inspection.bundle_id).toBe(BUNDLE_ID);
  });

  it('takes the failure from diagnostics.json when the manifest is unreadable', async () => {
    const zip = await editBundle(await validZip, (files) => editJson(files, 'manifest.json', (m) => (m.frames = 'none')));
    const inspection = await inspectBundle(zip);
    expect(inspection.unreadable).toEqual([{ file: 'manifest.json', error: expect.stringContaining('frames') as string }]);
    expect(inspection.failure).toMatchObject({ reason: 'page_exception', time: '2026-11-22T12:00:00.000Z', origin: 'debugger' });
    expect(inspection.frames).toBeNull();
    expect(inspection.clip).toMatchObject({ manifest_seconds: null, mp4_seconds: 1.5 });
  });

  it('rejects bytes that are not a zip', async () => {
    await expect(inspectBundle(new TextEncoder().encode('not a zip'))).rejects.toBeInstanceOf(NotAZipError);
  });
});

describe('formatSteps', () => {
  const line = (over: Partial<StepLine>): StepLine => ({ at_ms: -1_234, source: 'observer', kind: 'input', action: 'type', target: null, value: null, value_redacted: false, outcome: null, label: null, ...over });

  it.each<[Partial<StepLine>, string]>([
    [{ value_redacted: true, target: 'input #password' }, '   -1.23  observer  input     type  input #password  (redacted)'],
    [{ value: 'Jane', target: 'input #name' }, '   -1.23  observer  input     type  input #name  "Jane"'],
    [{ at_ms: 250, source: 'agent', kind: 'agent', action: 'check\nthe cart', outcome: 'ok', label: 'cart' }, '   +0.25  agent     agent     check the cart  → ok  [cart]'],
    [{ value: 'x'.repeat(100) }, `   -1.23  observer  input     type  "${'x'.repeat(38)}…`],
  ])('%j', (over, expected) => {
    expect(formatSteps([line(over)])).toEqual([expected]);
  });
});
