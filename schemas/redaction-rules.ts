import { z } from 'zod';

// Its own module: content scripts load these rules in every frame, and building every settings schema there would cost each page load.
const regexSource = z
  .string()
  .min(1)
  .max(512)
  .refine(
    (source) => {
      try {
        new RegExp(source, 'u');
        return true;
      } catch {
        return false;
      }
    },
    { message: 'not a valid regular expression' },
  );

/**
 * Custom redaction: elements matching `selectors` (their values and text) are withheld; fields whose
 * name, id or label matches a `fieldNamePatterns` regex are withheld; text matching a `textPatterns`
 * regex is masked wherever text is recorded.
 */
export const RedactionRulesSchema = z
  .object({
    selectors: z.array(z.string().min(1).max(512)).max(100),
    fieldNamePatterns: z.array(regexSource).max(100),
    textPatterns: z.array(regexSource).max(100),
  })
  .strict();
export type RedactionRules = z.infer<typeof RedactionRulesSchema>;
