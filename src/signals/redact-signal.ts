import type { FailureSignal } from '../../schemas/failure';
import { maskText } from '../redact/mask-text';
import { redactUrl, redactUrlsInText } from '../redact/redact-url';

/** Masks data patterns and the query values of any URL inside the text (stacks are full of URLs). */
export const maskSignalText = (text: string): string => maskText(redactUrlsInText(text)).text;
const mask = (text: string | null): string | null => (text === null ? null : maskSignalText(text));

/**
 * A signal as it may be stored: exception messages and stacks, labels and URLs can carry what a
 * user typed (`throw new Error('bad card ' + input.value)`), so they are masked like page text.
 */
export function redactSignal(signal: FailureSignal): FailureSignal {
  return {
    ...signal,
    reason: maskText(signal.reason).text,
    label: mask(signal.label),
    message: mask(signal.message),
    stack: mask(signal.stack),
    url: signal.url === null ? null : redactUrl(signal.url),
    request: signal.request === null ? null : { ...signal.request, url: redactUrl(signal.request.url), error_text: mask(signal.request.error_text) },
  };
}
