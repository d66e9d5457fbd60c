import { describe, expect, it } from 'vitest';
import { editBundle, makeBundle } from '../../test/fixtures/cli/make-bundle';
import { BundleReadError } from './errors';
import { openBundle } from './open-bundle';
import { pageRequest } from './paging';
import { listConsole, listRequests, readErrors } from './signals';
import { readSummary } from './summary';

async function refusal(promise: Promise<unknown>): Promise<BundleReadError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(BundleReadError);
  return error as BundleReadError;
}

describe('console, requests and errors', () => {
  it('lists what diagnostics.json kept, timed from the failure', async () => {
    const reader = await openBundle(await makeBundle());
    expect((await listConsole(reader, pageRequest())).items).toEqual([{ index: 1, at_ms: -100, message: 'Uncaught TypeError: cart is undefined', url: 'https://shop.test/app.js' }]);
    expect((await listRequests(reader, pageRequest())).items).toEqual([
      { index: 1, at_ms: -1500, method: 'GET', url: 'https://shop.test/api/cart', status: 404, error_text: null, resource_type: 'fetch', duration_ms: 12 },
    ]);
    const errors = await readErrors(reader);
    expect(errors.failure?.stack).toHaveLength(3);
    expect(errors.recording).toMatchObject({ capture_errors: 2, quota_errors: 1, last_capture_error: 'Tabs cannot be edited right now' });
    expect(errors.warnings).toEqual(['frame 2 was captured late']);
  });

  it('says the capture level left them out when there is no diagnostics.json', async () => {
    const zip = await editBundle(await makeBundle(), (files) => files.delete('diagnostics.json'));
    const reader = await openBundle(zip);
    expect((await refusal(listConsole(reader, pageRequest()))).message).toBe('the bundle has no diagnostics.json: its capture level leaves out console errors');
    expect((await readSummary(reader)).counts.console_errors).toBeNull();
  });
});
