/**
 * Planted secrets: each is typed into (or pre-filled in) a field of the test pages, and no byte of any
 * bundle may contain it. Long and distinctive so a chance match inside JPEG or MP4 data is negligible.
 */
export const SECRETS = {
  password: 'Hunter2-Zebra-9931!',
  newPassword: 'Correct-Horse-Battery-4471',
  email: 'jane.secret.doe@example.com',
  phone: '+1 415 555 0134',
  card: '4111 1111 1111 1111',
  cvv: '7319',
  otp: '731902',
  ssn: '512-44-9023',
  iban: 'DE89370400440532013000',
  apiToken: 'tok_live_9f8e7d6c5b4a',
  csrf: 'csrf-3c1f0a9e77d24b1e',
  pin: '582139',
  shadowPassword: 'Shadow-Secret-5521',
  shadowEmail: 'shadow.user@example.org',
  frameCard: '5555 5555 5555 4444',
  frameOtp: '864209',
  notesEmail: 'jane.notes@example.com',
  notesPhone: '(415) 555-0199',
  presetToken: 'preset-value-secret-0042',
} as const;

/** Different spellings of the same secret that a careless redactor might leak. */
export function secretVariants(): string[] {
  const all = Object.values(SECRETS) as string[];
  const digitsOnly = [SECRETS.card, SECRETS.frameCard, SECRETS.phone, SECRETS.ssn, SECRETS.notesPhone].map((s) => s.replace(/\D/g, ''));
  return [...all, ...digitsOnly];
}
