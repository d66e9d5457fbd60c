import { RedactionPreviewSchema, type RedactionPreview } from '../../schemas/api';
import { browser } from 'wxt/browser';
import type { ToContentMessage } from '../../schemas/messages';
import type { RedactionRules } from '../../schemas/settings';
import { describeZodError } from '../shared/zod-error';
import { errorMessage } from '../shared/error-message';

/** Asks the tab's top-frame content script what the rules would mask there. */
export async function requestRedactionPreview(tabId: number, rules: RedactionRules): Promise<RedactionPreview> {
  const message: ToContentMessage = { type: 'redaction/preview', rules };
  const raw: unknown = await browser.tabs.sendMessage(tabId, message, { frameId: 0 }).catch((error: unknown) => {
    throw new Error(`the tab did not answer (${errorMessage(error)}); reload it and try again`);
  });
  const parsed = RedactionPreviewSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`malformed preview from the tab: ${describeZodError(parsed.error)}`);
  return parsed.data;
}
