// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { SettingsPatchSchema, type Settings } from '../../schemas/settings';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import { mergeSignalRules } from '../settings/settings-store';
import { mountSettingsPage } from './settings-page';
import { fakePorts, settle } from '../../test/fakes/ui-data';

const byTestId = <T extends HTMLElement>(testid: string) => document.querySelector<T>(`[data-testid="${testid}"]`)!;
const control = <T extends HTMLElement = HTMLInputElement>(name: string) => document.querySelector<T>(`[name="${name}"]`)!;
const type = (name: string, value: string) => {
  const input = control<HTMLInputElement | HTMLTextAreaElement>(name);
  input.value = value;
  input.dispatchEvent(new Event('input'));
};
const submit = async () => {
  byTestId('save').closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await settle();
};

describe('settings page', () => {
  let stored: Settings;
  beforeEach(() => {
    document.body.replaceChildren();
    stored = DEFAULT_SETTINGS;
  });
  const mount = async (configure?: (patch: unknown) => unknown, managed: string[] = []) => {
    const root = document.body.appendChild(document.createElement('div'));
    const fake = fakePorts({
      getSettings: () => stored,
      managedSettings: () => managed,
      configure:
        configure ??
        ((patch) => {
          const { signals, ...rest } = SettingsPatchSchema.parse(patch);
          return (stored = { ...stored, ...rest, signals: mergeSignalRules(stored.signals, signals) });
        }),
      previewRedaction: () => ({ matches: [{ tag: 'input', selector: '#pw', reason: 'built_in:password', sample: '(value withheld)' }], total: 1, problems: [] }),
    });
    await mountSettingsPage(root, fake.ports);
    return fake;
  };

  it('shows every setting, signals a row per kind', async () => {
    await mount();
    expect(control('bufferSeconds').value).toBe('15');
    expect(control('captureOnAction').checked).toBe(true);
    expect(control<HTMLSelectElement>('captureLevel').value).toBe('full');
    expect(control('signals.network_failure.resourceTypes').value).toBe('Document, XHR, Fetch');
    expect(control('signals.app_error.jsonFields').value).toBe('error, errors, ok=false, success=false, status=error, status=fail');
    expect(document.querySelectorAll('.signal-row').length).toBe(11);
    expect(control('signals.tool_latency.thresholdMs').value).toBe('30000');
    expect([...document.querySelectorAll('h2')].map((h) => h.textContent)).toEqual(['Recording', 'Signals', 'Bundles & retention', 'Privacy & redaction', 'Delivery to object storage']);
  });

  it('explains a bad value as the API would, and sends nothing', async () => {
    const { calls } = await mount();
    type('bufferSeconds', '0');
    expect(byTestId('error-bufferSeconds').textContent).toBe('Too small: expected number to be >=1');
    await submit();
    expect(byTestId('save-message').textContent).toBe('Nothing saved: fix the marked fields.');
    expect(calls.some((c) => c[0] === 'configure')).toBe(false);
  });

  it('sends one patch with the changed fields', async () => {
    const { calls } = await mount();
    type('bufferSeconds', '20');
    control<HTMLSelectElement>('signals.http_4xx.action').value = 'trigger';
    control('signals.http_4xx.action').dispatchEvent(new Event('change'));
    type('signals.http_4xx.statuses', '401, 403');
    type('redaction.selectors', '.account-number\n#member-id');
    await submit();
    expect(calls.filter((c) => c[0] === 'configure')).toEqual([
      [
        'configure',
        {
          bufferSeconds: 20,
          signals: { http_4xx: { action: 'trigger', statuses: [401, 403] } },
          redaction: { selectors: ['.account-number', '#member-id'], fieldNamePatterns: [], textPatterns: [] },
        },
      ],
    ]);
    expect(byTestId('save-message').textContent).toBe('Saved: bufferSeconds, signals.http_4xx.action, signals.http_4xx.statuses, redaction.selectors.');
    expect(document.querySelectorAll('.field.changed').length).toBe(0);
    await submit();
    expect(byTestId('save-message').textContent).toBe('No changes to save.');
  });

  it('shows the API error under its field', async () => {
    await mount(() => Promise.reject(new Error('invalid settings: maxBufferBytes: Too big: expected number to be <=1')));
    type('maxBufferBytes', '2097152');
    await submit();
    expect(byTestId('error-maxBufferBytes').textContent).toBe('Too big: expected number to be <=1');
    expect(byTestId('save-message').textContent).toBe('Not saved: invalid settings: maxBufferBytes: Too big: expected number to be <=1');
  });

  it('tests the rules being edited on a tab, without saving them', async () => {
    const { calls } = await mount();
    await settle();
    type('redaction.textPatterns', 'member \\d+');
    byTestId('preview-run').click();
    await settle();
    expect(calls).toContainEqual(['previewRedaction', { tabId: 7, rules: { selectors: [], fieldNamePatterns: [], textPatterns: ['member \\d+'] } }]);
    expect(byTestId('preview-summary').textContent).toBe('1 element would be masked.');
    expect(byTestId('preview-matches').textContent).toContain('built_in:password');
    expect(calls.some((c) => c[0] === 'configure')).toBe(false);
  });

  it('does not test rules that do not validate', async () => {
    const { calls } = await mount();
    type('redaction.fieldNamePatterns', '(');
    byTestId('preview-run').click();
    await settle();
    expect(byTestId('preview-result').textContent).toBe('Fix the marked rules first.');
    expect(byTestId('error-redaction.fieldNamePatterns').textContent).toBe('item 1 ((): not a valid regular expression');
    expect(calls.some((c) => c[0] === 'previewRedaction')).toBe(false);
  });

  it('shows settings set by enterprise policy read-only, with a note, and saves the others', async () => {
    stored = { ...DEFAULT_SETTINGS, upload: { ...DEFAULT_SETTINGS.upload, mode: 's3', s3: { ...DEFAULT_SETTINGS.upload.s3, bucket: 'fleet-runs', secretAccessKey: '••••••••' } } };
    const fake = await mount(undefined, ['upload']);
    expect(control('upload.s3.bucket').disabled).toBe(true);
    expect(control('upload.s3.bucket').value).toBe('fleet-runs');
    expect(control<HTMLSelectElement>('upload.mode').disabled).toBe(true);
    expect(byTestId('managed-upload.s3.bucket').textContent).toMatch(/set by your organization/i);
    expect(control('bufferSeconds').disabled).toBe(false);
    expect(document.querySelector('[data-testid="managed-bufferSeconds"]')).toBeNull();
    type('bufferSeconds', '20');
    await submit();
    const sent = fake.calls.filter(([m]) => m === 'configure').map(([, patch]) => patch);
    expect(sent).toEqual([{ bufferSeconds: 20 }]);
  });
});
