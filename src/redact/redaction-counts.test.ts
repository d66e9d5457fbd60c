import { expect, it } from 'vitest';
import { RedactionCountsSchema, RedactionKindSchema, TextMaskKindSchema } from '../../schemas/snapshot';
import { REDACTION_KINDS, TEXT_MASK_KINDS, addRedactionCounts, createRedactionCounts, totalRedactions } from './redaction-counts';

it('lists the same kinds as the schema', () => {
  expect(REDACTION_KINDS).toEqual(RedactionKindSchema.options);
  expect(TEXT_MASK_KINDS).toEqual(TextMaskKindSchema.options);
});


it('creates zeroed counts the schema accepts, adds and totals them', () => {
  const a = createRedactionCounts();
  expect(RedactionCountsSchema.parse(a)).toEqual(a);
  a.fields.password = 2;
  const b = createRedactionCounts();
  b.fields.password = 1;
  b.text.email = 3;
  expect(addRedactionCounts(a, b)).toMatchObject({ fields: { password: 3 }, text: { email: 3 } });
  expect(totalRedactions(a)).toBe(6);
});
