import { RedactionRulesSchema, type RedactionRules, type Settings } from '../../schemas/settings';
import { h } from './dom';
import { errorMessage } from '../shared/error-message';
import { createFieldControl, type FieldControl } from './field-control';
import type { UiPorts } from './ports';
import { createRedactionPreview } from './redaction-preview';
import { createUploadTest } from './upload-test';
import { ALL_FIELDS, BUNDLE_FIELDS, FAILURE_FIELDS, RECORDING_FIELDS, REDACTION_FIELDS, SIGNAL_ROWS, UPLOAD_FIELDS, type FieldSpec } from './settings-fields';
import { buildPatch, checkPatch, fieldErrors, fromFormValue, serverFieldErrors, settingsToForm, type FieldErrors, type FormValues } from './settings-form';

/** Beside each field enterprise policy sets. */
export const MANAGED_NOTE = 'Set by your organization (enterprise policy).';

/**
 * The options page: every setting in four groups. Each edit is checked against the API's own patch
 * schema; Save sends the changed fields as one `configure` patch and shows the API's error if any.
 */
export async function mountSettingsPage(root: HTMLElement, ports: UiPorts): Promise<void> {
  let settings: Settings;
  let managed: ReadonlySet<string>;
  try {
    [settings, managed] = await Promise.all([ports.call('getSettings'), ports.call('managedSettings').then((keys) => new Set(keys))]);
  } catch (error) {
    root.replaceChildren(h('p', { className: 'error', attrs: { role: 'alert' } }, `Cannot read the settings: ${errorMessage(error)}`));
    return;
  }

  const controls = new Map<string, FieldControl>();
  const general = h('div', { className: 'error', attrs: { role: 'alert' }, data: { testid: 'general-errors' } });
  const message = h('span', { className: 'save-message', attrs: { role: 'status' }, data: { testid: 'save-message' } });
  const say = (text: string, kind: 'ok' | 'error' | 'muted') => {
    message.textContent = text;
    message.className = `save-message ${kind}`;
  };

  const values = (): FormValues => Object.fromEntries([...controls].map(([key, c]) => [key, c.read()]));
  const showErrors = (errors: FieldErrors) => {
    for (const [key, c] of controls) c.showErrors(errors[key] ?? []);
    general.replaceChildren(...(errors[''] ?? []).map((m) => h('div', null, m)));
  };
  const evaluate = () => {
    const current = values();
    const { patch, changed } = buildPatch(current, settings, ALL_FIELDS);
    for (const [key, c] of controls) c.markChanged(changed.includes(key));
    const check = checkPatch(patch, current, ALL_FIELDS);
    showErrors(check.ok ? {} : check.errors);
    return { check, changed };
  };
  const load = (next: Settings) => {
    settings = next;
    const form = settingsToForm(next, ALL_FIELDS);
    for (const [key, c] of controls) c.write(form[key] ?? '');
    evaluate();
  };
  const control = (spec: FieldSpec, compact = false) => {
    const c = createFieldControl(spec, () => evaluate(), { compact });
    controls.set(spec.key, c);
    // Set by enterprise policy: shown as it is in force, not editable (`configure` would refuse it too).
    if (managed.has(spec.path[0]!)) c.lock(MANAGED_NOTE);
    return c.element;
  };

  const save = h('button', { attrs: { type: 'submit' }, data: { testid: 'save' } }, 'Save');
  const revert = h('button', { attrs: { type: 'button' }, className: 'secondary', data: { testid: 'revert' } }, 'Revert');
  revert.addEventListener('click', () => {
    load(settings);
    say('Changes reverted.', 'muted');
  });

  const readRules = (): RedactionRules | null => {
    const current = values();
    const rules = Object.fromEntries(REDACTION_FIELDS.map((f) => [f.path[1], fromFormValue(current[f.key] ?? '', f.kind)]));
    const parsed = RedactionRulesSchema.safeParse(rules);
    if (parsed.success) return parsed.data;
    showErrors(fieldErrors(parsed.error.issues.map((i) => ({ path: ['redaction', ...i.path], message: i.message })), current, ALL_FIELDS));
    return null;
  };

  const form = h(
    'form',
    { className: 'settings', attrs: { novalidate: '' } },
    h('div', { className: 'actions' }, save, revert, message, general),
    section('Recording', 'What the frame ring keeps and how often the visible tab is captured.', RECORDING_FIELDS.map((f) => control(f))),
    section('Signals', 'What happens when the recorder sees a failure signal. trigger makes a bundle; record only puts the signal on the timeline.', [
      ...FAILURE_FIELDS.map((f) => control(f)),
      h(
        'div',
        { className: 'signal-rows' },
        ...SIGNAL_ROWS.map((row) =>
          h(
            'fieldset',
            { className: 'signal-row', data: { kind: row.kind } },
            h('legend', null, h('code', null, row.kind), h('span', { className: 'muted' }, ` \u2192 ${row.reason}`)),
            control(row.enabled, true),
            control(row.action, true),
            ...row.filters.map((f) => control(f, true)),
          ),
        ),
      ),
    ]),
    section('Bundles & retention', 'What a bundle holds and how long the extension keeps bundles.', BUNDLE_FIELDS.map((f) => control(f))),
    section('Privacy & redaction', 'Passwords, emails, phone and card numbers, one-time codes and other sensitive values are always masked. Add your own rules on top.', [
      ...REDACTION_FIELDS.map((f) => control(f)),
      createRedactionPreview(ports, readRules),
    ]),
    section(
      'Delivery to object storage',
      'Every stored bundle also goes to an S3-compatible bucket (AWS S3, R2, MinIO), retried until the store confirms it. The credentials stay in this browser’s extension storage.',
      [...UPLOAD_FIELDS.map((f) => control(f)), createUploadTest(ports, () => buildPatch(values(), settings, UPLOAD_FIELDS).patch.upload ?? settings.upload)],
    ),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const { check, changed } = evaluate();
    if (!check.ok) return say('Nothing saved: fix the marked fields.', 'error');
    if (changed.length === 0) return say('No changes to save.', 'muted');
    save.disabled = true;
    try {
      load(await ports.call('configure', check.patch));
      say(`Saved: ${changed.join(', ')}.`, 'ok');
    } catch (error) {
      showErrors(serverFieldErrors(errorMessage(error), values(), ALL_FIELDS));
      say(`Not saved: ${errorMessage(error)}`, 'error');
    } finally {
      save.disabled = false;
    }
  });

  root.replaceChildren(
    h(
      'header',
      { className: 'page-header' },
      h('h1', null, 'Agent Flight Recorder: settings'),
      h('nav', null, h('a', { attrs: { href: ports.pageUrl('library.html') } }, 'Bundle library')),
    ),
    h('main', { className: 'page-main' }, form),
  );
  load(settings);
}

function section(title: string, intro: string, children: Node[]): HTMLElement {
  const id = `group-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return h('section', { className: 'group', attrs: { 'aria-labelledby': id } }, h('h2', { attrs: { id } }, title), h('p', { className: 'muted' }, intro), ...children);
}
