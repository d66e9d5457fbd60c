import { CAPTURE_LEVELS } from '../../schemas/capture-level';
import { DEFAULT_SETTINGS, SettingsSchema } from '../../schemas/settings';
import { REASON_BY_KIND, SIGNAL_KINDS, type SignalKind } from '../../schemas/signals';
import { formatBytes } from './format';

/**
 * How a setting is edited. Lists are split on commas or newlines, except regular expressions and CSS
 * selectors, which may contain commas themselves (`\d{3,4}`, `a[title="x,y"]`): those are one per line.
 */
export type FieldKind =
  | { type: 'number'; unit?: 'bytes' | 'ms' | 's' | 'days' }
  | { type: 'boolean' }
  | { type: 'enum'; options: readonly string[] }
  | { type: 'list'; split: 'comma-or-line' | 'line'; items: 'string' | 'number'; multiline: boolean }
  /** One line of text; `secret`: a password input, its value read back masked (`••••••••`) and kept when sent back so. */
  | { type: 'text'; secret?: boolean };

/** One editable setting: `path` into `Settings`, `key` is the path joined with dots. */
export interface FieldSpec {
  key: string;
  path: readonly string[];
  label: string;
  hint: string;
  kind: FieldKind;
}

const field = (path: readonly string[], label: string, kind: FieldKind, hint = ''): FieldSpec => ({ key: path.join('.'), path, label, hint, kind });

type NumberKey = {
  [K in keyof typeof SettingsSchema.shape]: ReturnType<(typeof SettingsSchema.shape)[K]['unwrap']> extends { minValue: number | null } ? K : never;
}[keyof typeof SettingsSchema.shape];

/** A number setting with its range and default, read from the schema so the hint cannot drift. */
function numberField(key: NumberKey, label: string, unit?: 'bytes' | 'ms' | 's' | 'days', about = ''): FieldSpec {
  const schema = SettingsSchema.shape[key].unwrap();
  const show = (n: number | null) => (n === null ? '?' : unit === 'bytes' ? formatBytes(n) : `${n}${unit ? ` ${unit}` : ''}`);
  const hint = `${about ? `${about} ` : ''}${show(schema.minValue)} to ${show(schema.maxValue)}; default ${show(DEFAULT_SETTINGS[key])}.`;
  return field([key], label, unit ? { type: 'number', unit } : { type: 'number' }, hint);
}

/** Recording: what the frame ring keeps, and capture. */
export const RECORDING_FIELDS: FieldSpec[] = [
  field(['captureLevel'], 'Capture level', { type: 'enum', options: CAPTURE_LEVELS }, 'off < metadata (timeline) < trace (+ DOM snapshot) < screenshots (+ frames) < video = full (+ clip).'),
  numberField('bufferSeconds', 'Seconds kept before a failure', 's'),
  numberField('maxBufferBytes', 'Frame ring cap (bytes)', 'bytes', 'The oldest frames are evicted first.'),
  numberField('maxTimelineBytes', 'DOM timeline cap (bytes)', 'bytes', 'The page at every step (capture level trace and up); the oldest pages go first.'),
  field(['captureSource'], 'Capture source', { type: 'enum', options: ['auto', 'screencast', 'visibleTab'] }, 'auto: screencast where the debugger is attached, captureVisibleTab elsewhere.'),
  numberField('fps', 'Screencast frames per second', undefined, 'Up to 30.'),
  numberField('maxWidth', 'Screencast max width (CSS px)'),
  numberField('maxHeight', 'Screencast max height (CSS px)'),
  numberField('captureIntervalMs', 'Capture interval (visibleTab)', 'ms', 'Chrome allows 2 captures a second.'),
  numberField('jpegQuality', 'JPEG quality'),
  field(['captureOnAction'], 'Take a frame right after each action', { type: 'boolean' }),
  field(
    ['scope'],
    'Tabs recorded',
    { type: 'enum', options: ['all', 'agent', 'chosen'] },
    'all: every tab; agent: the tab of the agent’s runStart and tabs opened while its run is active or from its tabs; chosen: tabs chosen in the popup and the origins below. Nothing else is captured, observed or bundled.',
  ),
  field(
    ['scopeOrigins'],
    'Origins recorded (scope: chosen)',
    { type: 'list', split: 'comma-or-line', items: 'string', multiline: true },
    'Exact origins such as https://shop.example, or *.example.com for that host and every host under it.',
  ),
];

const SIGNAL_FILTERS = {
  urls: field([], 'Only these URLs', { type: 'list', split: 'comma-or-line', items: 'string', multiline: true }, 'Globs with * or /regex/; empty: all.'),
  ignoreUrls: field([], 'Ignore URLs', { type: 'list', split: 'comma-or-line', items: 'string', multiline: true }, 'Globs with * or /regex/.'),
  statuses: field([], 'Statuses', { type: 'list', split: 'comma-or-line', items: 'number', multiline: false }, 'e.g. 401, 403; empty: the whole class.'),
  ignoreMessages: field([], 'Ignore messages', { type: 'list', split: 'line', items: 'string', multiline: true }, 'Regular expressions, one per line.'),
  resourceTypes: field([], 'Resource types', { type: 'list', split: 'comma-or-line', items: 'string', multiline: false }, 'Document, XHR, Fetch, Image…; empty: all.'),
  jsonFields: field(
    [],
    'JSON fields that say it failed',
    { type: 'list', split: 'comma-or-line', items: 'string', multiline: false },
    'Top-level fields of a 2xx JSON answer: error (there, and not null or empty), ok=false, status=error…; empty: the defaults.',
  ),
  thresholdMs: field([], 'Slower than', { type: 'number', unit: 'ms' }, 'A tool call that took longer is a signal; default 30000 ms.'),
  steps: field([], 'Steps in a row', { type: 'number' }, 'Agent steps without a tool call between them, once the agent has made one; default 5.'),
} as const;

/** The filters that mean something for each kind: statuses for HTTP, resource types for network signals. */
const FILTERS_BY_KIND: Record<SignalKind, (keyof typeof SIGNAL_FILTERS)[]> = {
  exception: ['urls', 'ignoreUrls', 'ignoreMessages'],
  console_error: ['urls', 'ignoreUrls', 'ignoreMessages'],
  http_5xx: ['urls', 'ignoreUrls', 'statuses', 'resourceTypes'],
  http_4xx: ['urls', 'ignoreUrls', 'statuses', 'resourceTypes'],
  network_failure: ['urls', 'ignoreUrls', 'ignoreMessages', 'resourceTypes'],
  app_error: ['urls', 'ignoreUrls', 'ignoreMessages', 'jsonFields'],
  crash: ['urls', 'ignoreUrls'],
  dialog: ['urls', 'ignoreUrls', 'ignoreMessages'],
  tool_error: ['urls', 'ignoreUrls', 'ignoreMessages'],
  tool_latency: ['urls', 'ignoreUrls', 'thresholdMs'],
  no_tool_calls: ['urls', 'ignoreUrls', 'steps'],
};

/** One signal kind's rule on the page: its switches and the filters that apply to the kind. */
export interface SignalRow {
  kind: SignalKind;
  /** The bundle's `failure_reason` when this kind triggers. */
  reason: string;
  enabled: FieldSpec;
  action: FieldSpec;
  filters: FieldSpec[];
}

/** A row per signal kind, in the schema's order. */
export const SIGNAL_ROWS: SignalRow[] = SIGNAL_KINDS.map((kind) => {
  const at = (name: string) => ['signals', kind, name] as const;
  return {
    kind,
    reason: REASON_BY_KIND[kind],
    enabled: field(at('enabled'), 'Enabled', { type: 'boolean' }),
    action: field(at('action'), 'Action', { type: 'enum', options: ['trigger', 'record'] }),
    filters: FILTERS_BY_KIND[kind].map((name) => ({ ...SIGNAL_FILTERS[name], path: at(name), key: at(name).join('.') })),
  };
});

/** When failures make bundles. */
export const FAILURE_FIELDS: FieldSpec[] = [
  field(['persistMode'], 'Make bundles', { type: 'enum', options: ['on_fail', 'always', 'manual'] }, 'on_fail: on triggering signals and failed assertions; always: also every run at runEnd; manual: only on request.'),
  numberField('postFailureSeconds', 'Keep recording after a failure', 's', 'The clip shows what happened next.'),
  numberField('failureCooldownMs', 'Cooldown per tab', 'ms', 'Further failures of a tab this soon after its bundle are not bundled.'),
  field(
    ['pageCommandFrameOrigins'],
    'Frames that may send page commands',
    { type: 'list', split: 'comma-or-line', items: 'string', multiline: true },
    'Origins such as https://agent.example of frames inside the page whose page protocol messages count; the top frame\u2019s always do. Empty: no other frame\u2019s.',
  ),
];

/** What a bundle holds, and how long bundles are kept. */
export const BUNDLE_FIELDS: FieldSpec[] = [
  field(['encodeClip'], 'Encode failure.mp4', { type: 'boolean' }),
  field(['diagnosticsOtherTabs'], 'List the other recorded tabs in diagnostics.json', { type: 'boolean' }, 'Their URLs and last steps (never a tab outside the scope).'),
  field(['autoDownload'], 'Save each bundle to Downloads/agent-flight-recorder/', { type: 'boolean' }),
  numberField('maxStoredBundles', 'Bundles kept', undefined, 'The oldest are deleted first.'),
  numberField('maxStoredBundleBytes', 'Total size of kept bundles (bytes)', 'bytes', 'The newest bundle is always kept.'),
  numberField('bundleRetentionDays', 'Days a bundle is kept', 'days'),
  field(['network', 'bodies'], 'Bodies in network.har', { type: 'enum', options: ['off', 'api', 'documents', 'all'] }, 'api: XHR and fetch; documents: those and pages; all: every text body. Masked before they are kept.'),
  field(['network', 'maxEntries'], 'Requests kept per tab', { type: 'number' }, '100 to 20000; the oldest go first.'),
  field(['network', 'maxBytes'], 'Network log per tab (bytes)', { type: 'number', unit: 'bytes' }, '1 MiB to 256 MiB; the oldest requests go first.'),
  field(['network', 'maxBodyBytes'], 'Largest body kept (bytes)', { type: 'number', unit: 'bytes' }, 'Larger ones are kept as their size and SHA-256.'),
  field(['network', 'maxBundleBodyBytes'], 'Bodies per bundle (bytes)', { type: 'number', unit: 'bytes' }, 'The bodies nearest the failure are kept first.'),
];

/** Custom redaction rules, on top of the built-in ones. */
export const REDACTION_FIELDS: FieldSpec[] = [
  field(['redaction', 'selectors'], 'CSS selectors', { type: 'list', split: 'line', items: 'string', multiline: true }, 'Values and text of matching elements are withheld. One per line.'),
  field(['redaction', 'fieldNamePatterns'], 'Field-name patterns', { type: 'list', split: 'line', items: 'string', multiline: true }, 'Regular expressions over a field\u2019s name, id or label. One per line.'),
  field(['redaction', 'textPatterns'], 'Text patterns', { type: 'list', split: 'line', items: 'string', multiline: true }, 'Regular expressions; matching text is masked wherever text is recorded. One per line.'),
];

const text = (path: readonly string[], label: string, hint = '') => field(path, label, { type: 'text' }, hint);

/** Delivery of stored bundles to S3-compatible storage. */
export const UPLOAD_FIELDS: FieldSpec[] = [
  field(['upload', 'mode'], 'Deliver bundles', { type: 'enum', options: ['off', 's3', 'presigned'] }, 'off; s3: sign requests with the keys below; presigned: ask your presign service for a URL per object (no secret in the browser).'),
  field(['upload', 'include'], 'Which bundles', { type: 'enum', options: ['all', 'failures'] }, 'failures: passing runs bundled with persistMode always stay home.'),
  text(['upload', 's3', 'endpoint'], 'S3 endpoint', 'https URL of the store (http only for localhost), e.g. https://s3.eu-west-1.amazonaws.com or an R2/MinIO endpoint.'),
  text(['upload', 's3', 'bucket'], 'Bucket'),
  text(['upload', 's3', 'region'], 'Region', 'e.g. us-east-1; auto for R2.'),
  text(['upload', 's3', 'prefix'], 'Key prefix', 'Objects go to <prefix>/bundles/<yyyy>/<mm>/<dd>/ and <prefix>/index/….'),
  text(['upload', 's3', 'accessKeyId'], 'Access key id'),
  field(['upload', 's3', 'secretAccessKey'], 'Secret access key', { type: 'text', secret: true }, 'Shown masked; leave it as it is to keep it.'),
  field(['upload', 's3', 'sessionToken'], 'Session token', { type: 'text', secret: true }, 'For short-lived STS credentials; empty otherwise.'),
  text(['upload', 'presigned', 'endpoint'], 'Presign service', 'https URL answering POST {bundleId, sizeBytes, sha256, kind} with {url, headers}.'),
];

/** Every field of the settings page. */
export const ALL_FIELDS: FieldSpec[] = [
  ...RECORDING_FIELDS,
  ...FAILURE_FIELDS,
  ...SIGNAL_ROWS.flatMap((row) => [row.enabled, row.action, ...row.filters]),
  ...BUNDLE_FIELDS,
  ...REDACTION_FIELDS,
  ...UPLOAD_FIELDS,
];
