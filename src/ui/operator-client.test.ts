import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import type { UiApiMessage } from '../../schemas/messages';
import { createOperatorClient } from './operator-client';
import { makeStatus } from '../../test/fakes/ui-data';

describe('operator client', () => {
  it('sends one ui/api message and returns the validated value', async () => {
    const send = vi.fn(async (_message: UiApiMessage): Promise<unknown> => ({ ok: true, value: makeStatus({ frames: 12 }) }));
    const call = createOperatorClient(send);
    const status = await call('status');
    expect(status.frames).toBe(12);
    expect(send).toHaveBeenCalledWith({ type: 'ui/api', method: 'status', args: [] });
  });

  it('passes the arguments through', async () => {
    const send = vi.fn(async (_message: UiApiMessage): Promise<unknown> => ({ ok: true, value: DEFAULT_SETTINGS }));
    await createOperatorClient(send)('configure', { bufferSeconds: 20 });
    expect(send).toHaveBeenCalledWith({ type: 'ui/api', method: 'configure', args: [{ bufferSeconds: 20 }] });
  });

  it('throws the background error of an ok: false answer', async () => {
    const call = createOperatorClient(async () => ({ ok: false, error: 'invalid settings: bufferSeconds: Too small: expected number to be >=1' }));
    await expect(call('configure', { bufferSeconds: 0 })).rejects.toThrow('invalid settings: bufferSeconds: Too small: expected number to be >=1');
  });

  it.each([
    ['no answer', undefined, 'the recorder did not answer saveBundle()'],
    ['a malformed envelope', { ok: 'yes' }, 'unexpected answer to saveBundle()'],
    ['a value of the wrong type', { ok: true, value: 42 }, 'unexpected answer to saveBundle(): (input): Invalid input: expected string, received number'],
  ])('rejects %s', async (_what, answer, message) => {
    const call = createOperatorClient(async () => answer);
    await expect(call('saveBundle', {})).rejects.toThrow(message);
  });

  it('validates previews', async () => {
    const preview = { matches: [{ tag: 'input', selector: '#pw', reason: 'built_in:password', sample: '••••' }], total: 1, problems: [] };
    const call = createOperatorClient(async () => ({ ok: true, value: preview }));
    await expect(call('previewRedaction', { tabId: 3, rules: { selectors: [], fieldNamePatterns: [], textPatterns: [] } })).resolves.toEqual(preview);
  });
});
