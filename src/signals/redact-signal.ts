import type { FailureSignal } from '../../schemas/failure';
import type { TextMasker } from '../redact/mask-text';
import { redactUrl, redactUrlsInText } from '../redact/redact-url';

/** Masks secrets and the query values of any URL inside the text (stacks are full of URLs). */
export const maskSignalText = (text: string, masker: TextMasker): string => masker.mask(redactUrlsInText(text, masker)).text;

/**
 * A signal as it may be stored: exception messages and stacks, console errors, labels and URLs can
 * carry what a user typed (`throw new Error('bad card ' + input.value)`) or a credential
 * (`console.error('Authorization: Bearer …')`), so they are masked like page text, with the
 * masker of the settings in force (custom text patterns included).
 */
export function redactSignal(signal: FailureSignal, masker: TextMasker): FailureSignal {
  const mask = (text: string | null): string | null => (text === null ? null : maskSignalText(text, masker));
  return {
    ...signal,
    reason: masker.mask(signal.reason).text,
    label: mask(signal.label),
    message: mask(signal.message),
    stack: mask(signal.stack),
    url: signal.url === null ? null : redactUrl(signal.url, masker),
    request:
      signal.request === null
        ? null
        : {
            ...signal.request,
            url: redactUrl(signal.request.url, masker),
            error_text: mask(signal.request.error_text),
            ...(signal.request.excerpt !== undefined ? { excerpt: masker.mask(signal.request.excerpt).text } : {}),
          },
  };
}
