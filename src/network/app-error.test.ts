import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_ERROR_FIELDS } from '../../schemas/signals';
import { appErrorExcerpt, failedFields, findAppError } from './app-error';

describe('failedFields', () => {
  it.each([
    ['a REST error', { error: 'token_expired' }, ['error']],
    ['an error object', { error: { code: 401, message: 'expired' } }, ['error']],
    ['GraphQL errors beside data', { data: null, errors: [{ message: 'Not authorised' }] }, ['errors']],
    ['ok: false', { ok: false, reason: 'quota' }, ['ok']],
    ['success: false', { success: false }, ['success']],
    ['status: "error"', { status: 'error', message: 'db down' }, ['status']],
    ['status: "FAIL" (case aside)', { status: 'FAIL' }, ['status']],
    ['several at once', { ok: false, error: 'nope' }, ['error', 'ok']],
  ])('%s is a failure', (_name, body, fields) => {
    expect(failedFields(body, DEFAULT_APP_ERROR_FIELDS)).toEqual(fields);
  });

  it.each([
    ['error: null', { error: null, data: { id: 1 } }],
    ['errors: []', { data: { me: { id: 1 } }, errors: [] }],
    ['error: ""', { error: '' }],
    ['error: false', { error: false }],
    ['error: 0 (a "no error" code)', { error: 0 }],
    ['error: {}', { error: {} }],
    ['ok: true', { ok: true, error: null }],
    ['success: "false" (a string, not false)', { success: 'false' }],
    ['status: "ok"', { status: 'ok' }],
    ['status: 500 (a number)', { status: 500 }],
    ['an error nested, not at the top', { data: { error: 'not mine' } }],
    ['a field named like one', { errorCount: 3, okay: false }],
    ['an array body', [{ error: 'x' }]],
    ['a string body', 'error'],
    ['a number body', 0],
    ['null', null],
  ])('%s is not', (_name, body) => {
    expect(failedFields(body, DEFAULT_APP_ERROR_FIELDS)).toEqual([]);
  });

  it('reads the rule’s own patterns, and the defaults when it has none', () => {
    expect(failedFields({ result: 'denied', error: 'x' }, ['result=denied'])).toEqual(['result']);
    expect(failedFields({ code: 0 }, ['code=0'])).toEqual(['code']);
    expect(failedFields({ code: 1 }, ['code=0'])).toEqual([]);
    expect(failedFields({ error: 'x' }, [])).toEqual(['error']);
  });
});

describe('findAppError', () => {
  it('finds it in JSON text, with an excerpt leading with the fields that say so', () => {
    expect(findAppError('{"items":[],"error":"token_expired","hint":"sign in again"}', [])).toEqual({
      fields: ['error'],
      excerpt: '{"error":"token_expired","items":[],"hint":"sign in again"}',
    });
  });

  it.each([
    ['not JSON', 'error: token_expired'],
    ['JSON cut short', '{"error":"token_exp'],
    ['JSON naming no field', '{"items":[1,2,3]}'],
    ['a field named only in a value', '{"message":"\\"error\\" is a word"}'],
  ])('finds nothing in %s', (_name, text) => {
    expect(findAppError(text, [])).toBeNull();
  });

  it('cuts a long answer’s excerpt', () => {
    const excerpt = findAppError(JSON.stringify({ data: 'x'.repeat(5_000), errors: [{ message: 'boom' }] }), [])!.excerpt;
    expect(excerpt.length).toBe(300);
    expect(excerpt.startsWith('{"errors":[{"message":"boom"}],"data":"xxx')).toBe(true);
    expect(excerpt.endsWith('…')).toBe(true);
  });

  it('quotes the masked body as it is: masks stay masks', () => {
    expect(appErrorExcerpt({ error: 'bad token', token: '[redacted 32+]' }, ['error'])).toBe('{"error":"bad token","token":"[redacted 32+]"}');
  });
});
