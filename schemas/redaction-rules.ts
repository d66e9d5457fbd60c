import { z } from './zod-mini';

// Its own module, in zod mini: content scripts load these rules in every frame (see `zod-mini.ts`).
const regexSource = z.string().check(
  z.minLength(1),
  z.maxLength(512),
  z.refine(
    (source) => {
      try {
        new RegExp(source, 'u');
        return true;
      } catch {
        return false;
      }
    },
    { message: 'not a valid regular expression' },
  ),
);

/**
 * Custom redaction: elements matching `selectors` (their values and text) are withheld; fields whose
 * name, id or label matches a `fieldNamePatterns` regex are withheld; text matching a `textPatterns`
 * regex is masked wherever text is recorded.
 */
export const RedactionRulesSchema = z.strictObject({
  selectors: z.array(z.string().check(z.minLength(1), z.maxLength(512))).check(z.maxLength(100)),
  fieldNamePatterns: z.array(regexSource).check(z.maxLength(100)),
  textPatterns: z.array(regexSource).check(z.maxLength(100)),
});
export type RedactionRules = z.infer<typeof RedactionRulesSchema>;
