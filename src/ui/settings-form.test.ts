import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../../schemas/settings';
import { SIGNAL_KINDS } from '../../schemas/signals';
import { SECRET_MASK, UploadSettingsSchema } from '../../schemas/upload';
import { MemoryKeyValueStore, mergeSignalRules, SettingsStore, settingsForReadBack } from '../settings/settings-store';
import { ALL_FIELDS } from './settings-fields';
import { buildPatch, checkPatch, fromFormValue, serverFieldErrors, settingsToForm, type FormValues } from './settings-form';

const settings: Settings = SettingsSchema.parse({
  signals: mergeSignalRules(DEFAULT_SETTINGS.signals, { http_4xx: { statuses: [401, 403], urls: ['*/api/*'] }, exception: { ignoreMessages: ['ResizeObserver loop'] } }),
  redaction: { selectors: ['.secret', 'input[title="a,b"]'], fieldNamePatterns: [], textPatterns: ['\\d{3,4}'] },
});
const form = (over: FormValues = {}): FormValues => ({ ...settingsToForm(settings, ALL_FIELDS), ...over });
const patchOf = (over: FormValues) => buildPatch(form(over), settings, ALL_FIELDS);

describe('the settings form covers every setting', () => {
  it('has a field for each top-level setting', () => {
    const tops = new Set(ALL_FIELDS.map((f) => f.path[0]));
    expect([...tops].sort()).toEqual(Object.keys(SettingsSchema.shape).sort());
  });
  it('has enabled, action and URL filters for every signal kind', () => {
    for (const kind of SIGNAL_KINDS) {
      for (const name of ['enabled', 'action', 'urls', 'ignoreUrls']) expect(ALL_FIELDS.map((f) => f.key)).toContain(`signals.${kind}.${name}`);
    }
  });
});

describe('settings → form', () => {
  it('shows numbers, booleans, enums and lists as their controls hold them', () => {
    const values = form();
    expect(values.bufferSeconds).toBe('15');
    expect(values.captureOnAction).toBe(true);
    expect(values.persistMode).toBe('on_fail');
    expect(values['signals.http_4xx.statuses']).toBe('401, 403');
    expect(values['signals.http_4xx.urls']).toBe('*/api/*');
    expect(values['redaction.selectors']).toBe('.secret\ninput[title="a,b"]');
  });
});

describe('form → value', () => {
  it.each([
    [' 20 ', { type: 'number' } as const, 20],
    ['', { type: 'number' } as const, Number.NaN],
    ['1.5', { type: 'number' } as const, 1.5],
    [true, { type: 'boolean' } as const, true],
    ['401,\n 403', { type: 'list', split: 'comma-or-line', items: 'number', multiline: false } as const, [401, 403]],
    ['4o1', { type: 'list', split: 'comma-or-line', items: 'number', multiline: false } as const, [Number.NaN]],
  ])('%j', (value, kind, expected) => expect(fromFormValue(value, kind)).toEqual(expected));
});

describe('form → patch', () => {
  it('is empty when nothing changed', () => expect(patchOf({})).toEqual({ patch: {}, changed: [] }));

  it('holds only the changed top-level fields', () => {
    expect(patchOf({ bufferSeconds: '20', autoDownload: false, captureLevel: 'trace' })).toEqual({
      patch: { bufferSeconds: 20, autoDownload: false, captureLevel: 'trace' },
      changed: ['captureLevel', 'bufferSeconds', 'autoDownload'],
    });
  });

  it('patches signal rules field by field', () => {
    expect(patchOf({ 'signals.http_4xx.action': 'trigger', 'signals.http_4xx.statuses': '401\n403\n404', 'signals.dialog.enabled': false }).patch).toEqual({
      signals: { http_4xx: { action: 'trigger', statuses: [401, 403, 404] }, dialog: { enabled: false } },
    });
  });

  it('does not count reformatted lists as changes', () => {
    expect(patchOf({ 'signals.http_4xx.statuses': '401,403', 'signals.http_4xx.urls': ' */api/* \n' }).changed).toEqual([]);
  });

  it('sends redaction rules whole, as the patch schema wants them', () => {
    expect(patchOf({ 'redaction.fieldNamePatterns': 'member-?id' }).patch).toEqual({
      redaction: { selectors: ['.secret', 'input[title="a,b"]'], fieldNamePatterns: ['member-?id'], textPatterns: ['\\d{3,4}'] },
    });
  });

  it('leaves out fields the form does not have', () => {
    expect(buildPatch({ bufferSeconds: '30' }, DEFAULT_SETTINGS, ALL_FIELDS).patch).toEqual({ bufferSeconds: 30 });
  });
});

describe('validation with the API schema', () => {
  const check = (over: FormValues) => {
    const values = form(over);
    return checkPatch(buildPatch(values, settings, ALL_FIELDS).patch, values, ALL_FIELDS);
  };

  it('accepts a valid patch', () => expect(check({ bufferSeconds: '20' })).toEqual({ ok: true, patch: { bufferSeconds: 20 } }));

  it.each([
    ['bufferSeconds', '0', 'Too small: expected number to be >=1'],
    ['bufferSeconds', '301', 'Too big: expected number to be <=300'],
    ['bufferSeconds', '1.5', 'Invalid input: expected int, received number'],
    ['bufferSeconds', '', 'Invalid input: expected number, received NaN'],
    ['captureIntervalMs', '500', 'Too small: expected number to be >=550'],
    ['signals.http_4xx.statuses', '401, 4o3', 'item 2 (4o3): Invalid input: expected number, received NaN'],
    ['signals.http_5xx.statuses', '99, 404', 'item 1 (99): Too small: expected number to be >=100'],
    ['signals.exception.ignoreMessages', 'ok\n(unclosed', 'item 2 ((unclosed): not a valid regular expression'],
    ['redaction.textPatterns', '[a-', 'item 1 ([a-): not a valid regular expression'],
  ])('%s = %j → %s', (key, value, message) => {
    expect(check({ [key]: value })).toEqual({ ok: false, errors: { [key]: [message] } });
  });

  it('reports several fields at once', () => {
    const result = check({ bufferSeconds: '0', jpegQuality: '101' });
    expect(result.ok ? {} : result.errors).toEqual({
      bufferSeconds: ['Too small: expected number to be >=1'],
      jpegQuality: ['Too big: expected number to be <=100'],
    });
  });
});

describe('the API error, by field', () => {
  it('splits the message of a rejected configure', () => {
    const values = form({ 'signals.http_4xx.statuses': '401, 9999' });
    expect(serverFieldErrors('invalid settings: bufferSeconds: Too small: expected number to be >=1; signals.http_4xx.statuses.1: Too big: expected number to be <=599', values, ALL_FIELDS)).toEqual({
      bufferSeconds: ['Too small: expected number to be >=1'],
      'signals.http_4xx.statuses': ['item 2 (9999): Too big: expected number to be <=599'],
    });
  });
  it.each([
    ['storage is full', { '': ['storage is full'] }],
    ['invalid settings: (input): Unrecognized key: "x"', { '': ['invalid settings: (input): Unrecognized key: "x"'] }],
    ['invalid settings: somethingNew: Required', { '': ['somethingNew: Required'] }],
  ])('keeps %j as a general message', (message, errors) => expect(serverFieldErrors(message, form(), ALL_FIELDS)).toEqual(errors));
});

describe('the upload block', () => {
  const stored: Settings = {
    ...DEFAULT_SETTINGS,
    upload: UploadSettingsSchema.parse({ mode: 's3', s3: { endpoint: 'https://s3.example.com', bucket: 'runs', accessKeyId: 'AKIDFLEET', secretAccessKey: 'fleet-secret' } }),
  };
  // What the page reads: the settings as the API reads them back.
  const shown = settingsForReadBack(stored);

  it('shows the secret masked, and a change elsewhere sends the whole block with the mask, which keeps the secret', async () => {
    const form = settingsToForm(shown, ALL_FIELDS);
    expect(form['upload.s3.secretAccessKey']).toBe(SECRET_MASK);
    const { patch, changed } = buildPatch({ ...form, 'upload.s3.bucket': 'runs-2' }, shown, ALL_FIELDS);
    expect(changed).toEqual(['upload.s3.bucket']);
    expect(patch.upload).toMatchObject({ mode: 's3', s3: { bucket: 'runs-2', secretAccessKey: SECRET_MASK, endpoint: 'https://s3.example.com' } });
    const store = new SettingsStore(new MemoryKeyValueStore());
    await store.update({ upload: stored.upload });
    const next = await store.update(checkPatch(patch, form, ALL_FIELDS).ok ? patch : {});
    expect(next.upload.s3).toMatchObject({ bucket: 'runs-2', secretAccessKey: 'fleet-secret' });
  });

  it('puts what the mode lacks under its field', () => {
    const form = settingsToForm(DEFAULT_SETTINGS, ALL_FIELDS);
    const { patch } = buildPatch({ ...form, 'upload.mode': 's3' }, DEFAULT_SETTINGS, ALL_FIELDS);
    const check = checkPatch(patch, form, ALL_FIELDS);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(Object.keys(check.errors).sort()).toEqual(['upload.s3.accessKeyId', 'upload.s3.bucket', 'upload.s3.endpoint', 'upload.s3.secretAccessKey']);
  });
});
