import type { Step } from '../../schemas/steps';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `14:51:08.123` in UTC: bundles are read on other machines, so times stay in the bundle's own zone. */
export function formatClock(ts: number): string {
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return '?';
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

/** `2026-11-22 14:51:08.123 UTC` */
export function formatDateTime(ts: number): string {
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return '?';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${formatClock(ts)} UTC`;
}

/** Signed seconds relative to the failure: `−2.35 s`, `+0.10 s`, `0.00 s`. */
export function formatOffset(ms: number): string {
  const seconds = Math.abs(ms) / 1000;
  if (seconds < 0.005) return '0.00 s';
  return `${ms < 0 ? '\u2212' : '+'}${seconds.toFixed(2)} s`;
}

/** `1.2 MiB`, `340 KiB`, `12 B` */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A step's target in one line: `button "Add to cart" [data-testid="add-shoes"]`, or the agent's own string. */
export function describeTarget(target: Step['target']): string {
  if (target === null) return '';
  if (typeof target === 'string') return target;
  const role = target.role && target.role !== target.tag ? ` (${target.role})` : '';
  const name = target.name ? ` "${target.name}"` : '';
  return `${target.tag}${role}${name} ${target.selector}`;
}
