import { z } from 'zod';

/**
 * Kinds of failure signal the recorder sees by itself (besides the agent's own `fail`): the page's, and
 * from the agent's own calls (`afr.toolCall`) a tool call that failed or timed out (`tool_error`), one
 * slower than a threshold (`tool_latency`), and a run of agent steps without a tool call (`no_tool_calls`).
 */
export const SIGNAL_KINDS = ['exception', 'console_error', 'http_5xx', 'http_4xx', 'network_failure', 'app_error', 'crash', 'dialog', 'tool_error', 'tool_latency', 'no_tool_calls'] as const;
export const SignalKindSchema = z.enum(SIGNAL_KINDS);
export type SignalKind = z.infer<typeof SignalKindSchema>;

/** The `failure_reason` a triggering signal of each kind gives its bundle. */
export const REASON_BY_KIND: Record<SignalKind, string> = {
  exception: 'page_exception',
  console_error: 'console_error',
  http_5xx: 'http_5xx',
  http_4xx: 'http_4xx',
  network_failure: 'network_failure',
  app_error: 'app_error',
  crash: 'tab_crashed',
  dialog: 'dialog_opened',
  tool_error: 'tool_error',
  tool_latency: 'tool_slow',
  no_tool_calls: 'no_tool_calls',
};

const regexSource = z
  .string()
  .max(512)
  .refine(
    (source) => {
      try {
        new RegExp(source);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'not a valid regular expression' },
  );

/**
 * A top-level field of a JSON answer that says it failed: `error` (present, and neither null, false,
 * 0, "", [] nor {}), or `name=value` (equal to the JSON literal `false`, `true`, `null`, a number, or
 * else the text, case aside): `ok=false`, `status=error`.
 */
export const jsonFieldPattern = z
  .string()
  .max(128)
  .regex(/^[^=\s]{1,64}(=.{1,64})?$/, 'a field name, or name=value');

const jsonFields = z.array(jsonFieldPattern).max(20);

/** The fields that make a 2xx JSON answer an `app_error` by default (REST and GraphQL habits). */
export const DEFAULT_APP_ERROR_FIELDS = ['error', 'errors', 'ok=false', 'success=false', 'status=error', 'status=fail'];

/**
 * URL patterns: `*` matches any run of characters (`https://shop.test/api/*`), or a `/regex/` between slashes.
 */
const urlPattern = z.string().min(1).max(512);

/** What the recorder does with one kind of signal. */
export const SignalRuleSchema = z
  .object({
    enabled: z.boolean(),
    /** `trigger` makes a bundle; `record` only puts the signal on the timeline. */
    action: z.enum(['trigger', 'record']),
    /** The rule applies only to these URLs (the request's for network signals, else the page's); empty: all. */
    urls: z.array(urlPattern).max(50),
    /** Signals from these URLs are ignored altogether (known noise). */
    ignoreUrls: z.array(urlPattern).max(50),
    /** HTTP kinds: the statuses that count; empty: the whole class (400–499 or 500–599). */
    statuses: z.array(z.number().int().min(100).max(599)).max(100),
    /** Signals whose message matches one of these regular expressions are ignored. */
    ignoreMessages: z.array(regexSource).max(50),
    /** Network kinds: CDP resource types that count (`Document`, `XHR`, `Fetch`, `Image`…); empty: all. */
    resourceTypes: z.array(z.string().max(32)).max(20),
    /** `app_error`: the top-level JSON fields that make a 2xx answer a failure; empty: `DEFAULT_APP_ERROR_FIELDS`. */
    jsonFields: jsonFields.default([]),
    /** `tool_latency`: a tool call slower than this many milliseconds is a signal. */
    thresholdMs: z.number().int().positive().max(3_600_000).optional(),
    /** `no_tool_calls`: this many agent steps in a row without a tool call is a signal (once the agent has made one). */
    steps: z.number().int().min(1).max(1000).optional(),
  })
  .strict();
export type SignalRule = z.infer<typeof SignalRuleSchema>;

const rule = (action: SignalRule['action'], over: Partial<SignalRule> = {}): SignalRule => ({
  enabled: true,
  action,
  urls: [],
  ignoreUrls: [],
  statuses: [],
  ignoreMessages: [],
  resourceTypes: [],
  jsonFields: [],
  ...over,
});

/**
 * Defaults: exceptions, 5xx, network failures of documents and API calls, and crashes trigger; the rest
 * is recorded (an API call whose 2xx answer says it failed among them, and the agent-side checks).
 */
export const DEFAULT_SIGNAL_RULES: Record<SignalKind, SignalRule> = {
  exception: rule('trigger'),
  console_error: rule('record'),
  http_5xx: rule('trigger'),
  http_4xx: rule('record'),
  network_failure: rule('trigger', { resourceTypes: ['Document', 'XHR', 'Fetch'] }),
  app_error: rule('record', { resourceTypes: ['XHR', 'Fetch'], jsonFields: DEFAULT_APP_ERROR_FIELDS }),
  crash: rule('trigger'),
  dialog: rule('record'),
  tool_error: rule('record'),
  tool_latency: rule('record', { thresholdMs: 30_000 }),
  no_tool_calls: rule('record', { steps: 5 }),
};

export const SignalRulesSchema = z
  .object(Object.fromEntries(SIGNAL_KINDS.map((k) => [k, SignalRuleSchema.default(DEFAULT_SIGNAL_RULES[k])])) as {
    [K in SignalKind]: z.ZodDefault<typeof SignalRuleSchema>;
  })
  .strict();
export type SignalRules = z.infer<typeof SignalRulesSchema>;

/** A change to one rule: `jsonFields` without its default, which a patch would otherwise apply (clearing the rule's). */
const SignalRulePatchSchema = SignalRuleSchema.extend({ jsonFields }).partial().strict();

/** A change to some rules: `{ http_4xx: { action: 'trigger', statuses: [401, 403] } }`. */
export const SignalRulesPatchSchema = z
  .object(Object.fromEntries(SIGNAL_KINDS.map((k) => [k, SignalRulePatchSchema.optional()])) as {
    [K in SignalKind]: z.ZodOptional<typeof SignalRulePatchSchema>;
  })
  .strict();
export type SignalRulesPatch = z.infer<typeof SignalRulesPatchSchema>;
