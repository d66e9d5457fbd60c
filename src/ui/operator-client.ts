import { z } from 'zod';
import { BundleSummarySchema, RedactionPreviewSchema, StatusSchema } from '../../schemas/api';
import { UiApiResultSchema, type UiApiMessage, type UiApiMethod } from '../../schemas/messages';
import { SettingsSchema, type RedactionRules, type SettingsPatch } from '../../schemas/settings';
import { describeZodError } from '../shared/zod-error';
import { UploadProbeResultSchema, type UploadSettings } from '../../schemas/upload';

/** The answer each method must have; anything else is a broken contract, reported as an error. */
const RESULT_SCHEMAS = {
  status: StatusSchema,
  pause: StatusSchema,
  resume: StatusSchema,
  saveBundle: z.string(),
  listBundles: z.array(BundleSummarySchema),
  exportBundle: z.string(),
  deleteBundle: z.boolean(),
  downloadBundle: z.number().int(),
  getSettings: SettingsSchema,
  configure: SettingsSchema,
  previewRedaction: RedactionPreviewSchema,
  chooseTab: StatusSchema,
  testUpload: UploadProbeResultSchema,
  managedSettings: z.array(z.string()),
} satisfies Record<UiApiMethod, z.ZodType>;

/** The arguments of each operator API method. */
export interface OperatorArgs {
  status: [];
  pause: [];
  resume: [];
  /** A manual bundle of `tabId`, by default the visible tab. */
  saveBundle: [input?: { tabId?: number }];
  listBundles: [];
  /** The zip, base64: a bundle kept in memory (the disk was full) is only in the worker. */
  exportBundle: [id: string];
  deleteBundle: [id: string];
  downloadBundle: [id: string];
  getSettings: [];
  configure: [patch: SettingsPatch];
  previewRedaction: [input: { tabId: number; rules: RedactionRules }];
  /** The operator's "Record this tab" toggle; resolves to the status with the tab in or out of the scope. */
  chooseTab: [input: { tabId: number; chosen: boolean }];
  /** "Test connection" with the upload block as the form has it (a masked secret: the one in force). */
  testUpload: [input: { upload: UploadSettings }];
  /** The top-level settings enterprise policy sets (read-only on the options page). */
  managedSettings: [];
}

/** What a method resolves to, as its answer schema parses it. */
export type OperatorResult<M extends UiApiMethod> = z.infer<(typeof RESULT_SCHEMAS)[M]>;

/** Calls one method of the background's operator API; rejects with the background's error message. */
export type OperatorCall = <M extends UiApiMethod>(method: M, ...args: OperatorArgs[M]) => Promise<OperatorResult<M>>;

/**
 * A typed client over `send` (`chrome.runtime.sendMessage` in the extension).
 *
 * @example
 * const call = createOperatorClient((message) => chrome.runtime.sendMessage(message));
 * const status = await call('status');
 * const id = await call('saveBundle', { tabId: 12 });
 */
export function createOperatorClient(send: (message: UiApiMessage) => Promise<unknown>): OperatorCall {
  return async (method, ...args) => {
    const answer = await send({ type: 'ui/api', method, args });
    // No answer at all: a listener took the message and never responded (the service worker is starting or broken).
    if (answer === undefined) throw new Error(`the recorder did not answer ${method}()`);
    const result = UiApiResultSchema.safeParse(answer);
    if (!result.success) throw new Error(`unexpected answer to ${method}(): ${describeZodError(result.error)}`);
    if (!result.data.ok) throw new Error(result.data.error);
    const value = RESULT_SCHEMAS[method].safeParse(result.data.value);
    if (!value.success) throw new Error(`unexpected answer to ${method}(): ${describeZodError(value.error)}`);
    return value.data as OperatorResult<typeof method>;
  };
}
