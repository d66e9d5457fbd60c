import type { KnownSecrets } from './known-secrets';
import type { TextMasker } from './mask-text';
import { createTextMaskCounts } from './redaction-counts';

/**
 * `inner` that first masks every value `secrets` remembers (see `KnownSecrets`), and withholds the
 * value of every field that was ever a password field (`TextMasker.knownSecrets`). The result follows
 * `secrets` as it learns: for a masker that is replaced whenever it does (as caches keyed by masker
 * need), use `knownSecretsMaskers`.
 * @example const masker = withKnownSecrets(createTextMasker(rules), secrets); masker.mask(textEchoingAPassword)
 */
export function withKnownSecrets(inner: TextMasker, secrets: KnownSecrets): TextMasker {
  const maskInto: TextMasker['maskInto'] = (text, counts) => inner.maskInto(secrets.maskInto(text, counts), counts);
  return {
    rules: inner.rules,
    knownSecrets: secrets,
    maskInto,
    mask(text) {
      const counts = createTextMaskCounts();
      return { text: maskInto(text, counts), counts };
    },
    // Known values first, over the whole text: the cut below could otherwise keep part of one.
    maskAndCap: (text, cap, counts) => inner.maskAndCap(secrets.maskInto(text, counts), cap, counts),
    mayHold: (text) => secrets.holds(text) || inner.mayHold(text),
  };
}

/**
 * A function giving `withKnownSecrets(inner, secrets)`, the same object until `inner` changes or
 * `secrets` learns something: per-node caches keyed by masker (`cachedMaskedSpan`) then look again.
 */
export function knownSecretsMaskers(secrets: KnownSecrets): (inner: TextMasker) => TextMasker {
  let last: { inner: TextMasker; version: number; masker: TextMasker } | null = null;
  return (inner) => {
    const version = secrets.version;
    if (last?.inner !== inner || last.version !== version) last = { inner, version, masker: withKnownSecrets(inner, secrets) };
    return last.masker;
  };
}
