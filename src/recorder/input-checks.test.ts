import { describe, expect, it } from 'vitest';
import { SaveBundleInputSchema } from '../../schemas/api';
import { checkBundleId, parseInput, RecorderInputError } from './input-checks';

describe('input checks', () => {
  it('gives a valid input as parsed, and rejects another naming the call and what was wrong', () => {
    expect(parseInput(SaveBundleInputSchema, { tabId: 3 }, 'saveBundle')).toEqual({ tabId: 3 });
    const error = (() => {
      try {
        parseInput(SaveBundleInputSchema, { tabId: 'x' }, 'saveBundle');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(RecorderInputError);
    expect(error).toMatchObject({ name: 'RecorderInputError', message: expect.stringMatching(/^saveBundle: tabId: /) });
  });

  it.each([['../../etc/passwd'], [42], [null], ['afr-x']])('refuses %j as a bundle id', (id) => {
    expect(() => checkBundleId(id)).toThrow(new RecorderInputError(`not a bundle id: ${JSON.stringify(id)}`));
  });

  it('passes a bundle id', () => {
    expect(checkBundleId('afr-20261122T120000Z-aaaaaa')).toBe('afr-20261122T120000Z-aaaaaa');
  });
});
