export interface KeyActions {
  step(delta: number): void;
  togglePlay(): void;
  /** Selects the step `delta` places before or after the selected one. */
  walkSteps(delta: number): void;
}

/** Elements that need the keys for themselves: text entry, and `<summary>` (space opens it). */
function ownsKeys(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || (target as HTMLElement).isContentEditable) return true;
  if (target instanceof HTMLInputElement) return !['range', 'button', 'checkbox', 'radio', 'file'].includes(target.type);
  return key === ' ' && target.tagName === 'SUMMARY';
}

/**
 * ←/→ previous/next frame, ↑/↓ previous/next step, space play/pause, anywhere on the page except in
 * text fields. The keys' default actions are cancelled: a focused range input would move a second
 * time, a focused button would be clicked by the space bar, and the page would scroll.
 */
export function bindKeys(target: Document, actions: KeyActions): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || ownsKeys(event.target, event.key)) return;
    if (event.key === 'ArrowLeft') actions.step(-1);
    else if (event.key === 'ArrowRight') actions.step(1);
    else if (event.key === 'ArrowUp') actions.walkSteps(-1);
    else if (event.key === 'ArrowDown') actions.walkSteps(1);
    else if (event.key === ' ' || event.key === 'Spacebar') actions.togglePlay();
    else return;
    event.preventDefault();
  };
  target.addEventListener('keydown', onKey);
  return () => target.removeEventListener('keydown', onKey);
}
