import { h } from './dom';
import { formatBytes } from './format';
import type { FieldSpec } from './settings-fields';
import type { FormValue } from './settings-form';

/** One setting's control on the page, with its label, hint and error line. */
export interface FieldControl {
  spec: FieldSpec;
  element: HTMLElement;
  read(): FormValue;
  write(value: FormValue): void;
  showErrors(messages: readonly string[]): void;
  markChanged(changed: boolean): void;
  /** Makes the field read-only, with a note saying who sets it (enterprise policy). */
  lock(note: string): void;
}

type Input = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function makeInput(spec: FieldSpec, id: string): Input {
  const attrs = { id, name: spec.key };
  switch (spec.kind.type) {
    case 'boolean':
      return h('input', { attrs: { ...attrs, type: 'checkbox' } });
    case 'enum':
      return h('select', { attrs }, ...spec.kind.options.map((option) => h('option', { attrs: { value: option } }, option)));
    case 'number':
      // Text, not type=number: the schema, not the browser, says what is wrong with "1e" or "".
      return h('input', { attrs: { ...attrs, type: 'text', inputmode: 'decimal', autocomplete: 'off' } });
    case 'text':
      // A secret reads back masked: a password input, never offered to the browser's password manager.
      return h('input', { attrs: { ...attrs, type: spec.kind.secret ? 'password' : 'text', autocomplete: spec.kind.secret ? 'new-password' : 'off', spellcheck: 'false' } });
    case 'list':
      return spec.kind.multiline
        ? h('textarea', { attrs: { ...attrs, rows: '3', spellcheck: 'false' } })
        : h('input', { attrs: { ...attrs, type: 'text', autocomplete: 'off', spellcheck: 'false' } });
  }
}

/** Builds the control of `spec`; `onInput` runs on every edit. */
export function createFieldControl(spec: FieldSpec, onInput: () => void, options: { compact?: boolean } = {}): FieldControl {
  const id = `field-${spec.key.replaceAll('.', '-')}`;
  const input = makeInput(spec, id);
  const errorLine = h('div', { className: 'field-error', attrs: { role: 'alert', 'aria-live': 'polite' }, data: { testid: `error-${spec.key}` } });
  const live = h('span', { className: 'field-live' });
  const isBytes = spec.kind.type === 'number' && spec.kind.unit === 'bytes';
  const updateLive = () => {
    if (!isBytes) return;
    const n = Number((input as HTMLInputElement).value);
    live.textContent = (input as HTMLInputElement).value.trim() && Number.isFinite(n) ? `= ${formatBytes(n)}` : '';
  };
  input.addEventListener('input', () => {
    updateLive();
    onInput();
  });
  input.addEventListener('change', onInput);

  const hint = spec.hint && !options.compact ? h('div', { className: 'field-hint' }, spec.hint) : null;
  if (spec.hint) input.title = spec.hint;
  const element =
    spec.kind.type === 'boolean'
      ? h('div', { className: 'field field-boolean', data: { field: spec.key } }, h('label', { attrs: { for: id } }, input, ` ${spec.label}`), hint, errorLine)
      : h('div', { className: 'field', data: { field: spec.key } }, h('label', { attrs: { for: id } }, spec.label), h('div', { className: 'field-input' }, input, live), hint, errorLine);
  if (spec.kind.type !== 'boolean') input.setAttribute('aria-describedby', `${id}-error`);
  errorLine.id = `${id}-error`;

  return {
    spec,
    element,
    read: () => (input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input.value),
    write: (value) => {
      if (input instanceof HTMLInputElement && input.type === 'checkbox') input.checked = value === true;
      else input.value = String(value);
      updateLive();
    },
    showErrors: (messages) => {
      errorLine.replaceChildren(...messages.map((m) => h('div', null, m)));
      element.classList.toggle('invalid', messages.length > 0);
      input.setAttribute('aria-invalid', String(messages.length > 0));
    },
    markChanged: (changed) => element.classList.toggle('changed', changed),
    lock: (note) => {
      input.disabled = true;
      element.classList.add('managed');
      element.append(h('div', { className: 'field-managed muted', data: { testid: `managed-${spec.key}` } }, note));
    },
  };
}
