import { describe, expect, it } from 'vitest';
import { isSensitiveParamKey, sensitiveWordKind, tokenizeIdentifier } from './sensitive-words';

describe('tokenizeIdentifier', () => {
  it.each([
    ['apiToken', ['api', 'token']],
    ['card_number', ['card', 'number']],
    ['user-SSN', ['user', 'ssn']],
    ['userSSNumber', ['user', 'ss', 'number']],
    ['cvv2', ['cvv', '2']],
    ['  Your PIN:  ', ['your', 'pin']],
    ['', []],
  ])('%s', (input, tokens) => {
    expect(tokenizeIdentifier(input)).toEqual(tokens);
  });
});

describe('sensitiveWordKind', () => {
  it.each([
    ['pin-code', 'pin'],
    ['apiToken', 'token'],
    ['card_number', 'credit_card'],
    ['user-ssn', 'ssn'],
    ['Social Security Number', 'ssn'],
    ['One-time code', 'one_time_code'],
    ['2FA', 'one_time_code'],
    ['e-mail', 'email'],
    ['Mot de passe', 'password'],
    ['shipping', null],
    ['spinner', null],
    ['constructor', null],
    ['toString', null],
    ['Company name', null],
  ])('%s → %s', (input, kind) => {
    expect(sensitiveWordKind(input)).toBe(kind);
  });
});

describe('isSensitiveParamKey', () => {
  it.each([
    ['access_token', true],
    ['X-Amz-Security-Token', true],
    ['code', true],
    ['sessionId', true],
    ['PHPSESSID', false], // one word; session cookies are not query parameters in practice
    ['sig', true],
    ['page', false],
    ['q', false],
    ['keyword', false],
    ['utm_source', false],
  ])('%s → %s', (key, sensitive) => {
    expect(isSensitiveParamKey(key)).toBe(sensitive);
  });
});
