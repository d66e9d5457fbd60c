import { describe, expect, it } from 'vitest';
import { origin, setupRecorder } from '../../test/fakes/recorder';

const PATTERNS = { selectors: [], fieldNamePatterns: [], textPatterns: ['ACCT-\\d{6}'] };
const GITHUB_TOKEN = `ghp_${'aB3dE5fG7h'.repeat(4).slice(0, 36)}`;

describe('the service worker masks with the settings in force', () => {
  it('applies custom text patterns to console errors, exceptions and agent steps once configured', async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ persistMode: 'manual' });
    const page = () => 'https://shop.test/cart';
    const consoleError = (text: string) =>
      recorder.handleCdpEvent(7, 'Runtime.consoleAPICalled', { type: 'error', args: [{ type: 'string', value: text }] }, page);
    const steps = async () => (await ports.stepLog.between(7, 0, clock.t + 1)).map((s) => JSON.stringify(s)).join('\n');

    // Before: the built-in detectors only.
    await consoleError('lookup of ACCT-123456 failed');
    expect(await steps()).toContain('ACCT-123456');

    await afr.configure({ redaction: PATTERNS });
    clock.t += 10;
    await consoleError('lookup of ACCT-654321 failed');
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: no ACCT-777777' } } }, page);
    await afr.step({ tabId: 7, action: 'open account', reasoning: 'the user asked for ACCT-888888', goal: 'see ACCT-999999' });
    await recorder.handleMessage({ type: 'agent/command', ts: clock.t, url: 'https://shop.test/cart', command: { kind: 'step', action: 'check', reasoning: 'then ACCT-111222' } }, origin);
    const after = await steps();
    for (const id of ['ACCT-654321', 'ACCT-777777', 'ACCT-888888', 'ACCT-999999', 'ACCT-111222']) expect(after).not.toContain(id);
    expect(after).toContain('[redacted]');

    // Rules removed: the worker's masker follows.
    await afr.configure({ redaction: { selectors: [], fieldNamePatterns: [], textPatterns: [] } });
    clock.t += 10;
    await consoleError('lookup of ACCT-222333 failed');
    expect(await steps()).toContain('ACCT-222333');
    recorder.loop.stop();
  });

  it('masks credentials in console errors, exception messages, URLs and agent reasoning', async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ persistMode: 'manual' });
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    const page = () => `https://shop.test/s/${jwt}/cart`;
    await recorder.handleCdpEvent(7, 'Runtime.consoleAPICalled', { type: 'error', args: [{ type: 'string', value: `Authorization: Bearer ${GITHUB_TOKEN}` }] }, page);
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: `Error: key sk-proj-${'Ab3dE5fG7h'.repeat(5)} refused` } } }, page);
    await afr.step({ tabId: 7, action: 'log in', reasoning: `use AKIAIOSFODNN7EXAMPLE and password=hunter2` });
    const text = (await ports.stepLog.between(7, 0, clock.t + 1)).map((s) => JSON.stringify(s)).join('\n');
    for (const secret of [GITHUB_TOKEN, jwt, 'sk-proj-', 'AKIAIOSFODNN7EXAMPLE', 'hunter2']) expect(text).not.toContain(secret);
    expect(text).toContain('[credential]');
    recorder.loop.stop();
  });
});
