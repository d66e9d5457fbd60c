/**
 * A field whose value the recorder withheld: the script reads it from an environment variable named
 * after the field, with a harmless placeholder when it is not set. The value itself never reaches a script.
 */
export interface WithheldValue {
  /** `AFR_EMAIL`, `AFR_CARD_NUMBER`…: `AFR_` and the field's name in capitals, other characters as `_`. */
  env: string;
  /** What is typed when the variable is not set: shaped like the field's kind, never real data. */
  placeholder: string;
}

const PLACEHOLDERS: readonly (readonly [RegExp, string])[] = [
  [/e-?mail/i, 'person@example.com'],
  [/phone|mobile|\btel/i, '+1 555 0100'],
  [/card|cc-?num/i, '4000 0000 0000 0002'],
  [/cvc|cvv|security code/i, '000'],
  [/pass|pin|secret|token|otp|code/i, 'afr-placeholder'],
  [/zip|postal/i, '00000'],
  [/date|birth/i, '2000-01-01'],
];

/** The environment variable's stem for a field named `name` (`Email address` → `EMAIL_ADDRESS`). */
export function envStem(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase()
    .slice(0, 40)
    .replace(/_+$/, '');
}

/**
 * The variable and placeholder for a withheld field: named after its accessible name (or its role, or
 * `FIELD_<step>` when it has neither usable), numbered when another field of the run took the name.
 * @example withheldValue('Email', 'textbox', 3, new Set()) // { env: 'AFR_EMAIL', placeholder: 'person@example.com' }
 */
export function withheldValue(name: string | undefined, role: string | undefined, step: number, taken: Set<string>): WithheldValue {
  const stem = envStem(name ?? '') || envStem(role ?? '') || `FIELD_${step}`;
  let env = `AFR_${stem}`;
  for (let n = 2; taken.has(env); n++) env = `AFR_${stem}_${n}`;
  taken.add(env);
  const hint = `${name ?? ''} ${role ?? ''}`;
  const placeholder = PLACEHOLDERS.find(([pattern]) => pattern.test(hint))?.[1] ?? (role === 'spinbutton' ? '1' : 'placeholder');
  return { env, placeholder };
}
