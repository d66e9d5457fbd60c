import type { ReproStep } from './ports';

/**
 * What a step did, independent of when and of its index: its kind, the target's role and name (else
 * tag and selector) and, for navigations, the URL's path. Two runs' steps line up when their keys are
 * equal (the replay here; a comparison of two bundles the same way), whatever came between them.
 * @example stepKey({ kind: 'click', target: { tag: 'button', role: 'button', name: 'Checkout', selector: '#c' }, … }) // 'click button "Checkout"'
 */
export function stepKey(step: Pick<ReproStep, 'kind' | 'target' | 'url' | 'action'>): string {
  const target = step.target;
  if (step.kind === 'navigate') return `navigate ${pathOfUrl(step.url ?? '')}`;
  if (target === null) return `${step.kind} ${JSON.stringify(step.action)}`;
  if (typeof target === 'string') return `${step.kind} ${JSON.stringify(target)}`;
  return target.role && target.name ? `${step.kind} ${target.role} ${JSON.stringify(target.name)}` : `${step.kind} ${target.tag} ${JSON.stringify(target.selector)}`;
}

function pathOfUrl(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return JSON.stringify(url);
  }
}
