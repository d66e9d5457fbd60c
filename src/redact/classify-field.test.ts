// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifySensitiveField } from './classify-field';
import { NO_CUSTOM_RULES } from './custom-rules';
import { createKnownSecrets } from './known-secrets';

const html = readFileSync(path.join(import.meta.dirname, '../../test/fixtures/sensitive-fields.html'), 'utf8');
document.documentElement.innerHTML = html.replace(/^<!doctype html>/i, '');
const cases = Array.from(document.querySelectorAll<HTMLElement>('[data-expect]')).map(
  (el) => [el.id, el.dataset.expect === 'none' ? null : el.dataset.expect] as const,
);

describe('classifySensitiveField', () => {
  it('has cases from the fixture', () => {
    expect(cases.length).toBeGreaterThan(40);
  });

  it.each(cases)('#%s → %s', (id, expected) => {
    expect(classifySensitiveField(document.getElementById(id)!, NO_CUSTOM_RULES)).toBe(expected);
  });

  it('ignores elements that are not form fields', () => {
    const div = document.createElement('div');
    div.setAttribute('name', 'password');
    expect(classifySensitiveField(div, NO_CUSTOM_RULES)).toBeNull();
  });

  it('follows a password field that a "show password" toggle turned into text', () => {
    const input = document.createElement('input');
    input.type = 'password';
    input.name = 'pwd';
    input.type = 'text';
    expect(classifySensitiveField(input, NO_CUSTOM_RULES)).toBe('password');
  });

  it('keeps a field that was ever a password field withheld as one, whatever its name and type now', () => {
    const input = document.createElement('input');
    input.id = 'reveal';
    input.type = 'password';
    const known = createKnownSecrets();
    known.markPassword(input);
    input.type = 'text';
    expect(classifySensitiveField(input, NO_CUSTOM_RULES)).toBeNull();
    expect(classifySensitiveField(input, NO_CUSTOM_RULES, known)).toBe('password');
  });
});
