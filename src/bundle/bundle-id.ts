/** `afr-20261122T143205Z-k3x9q2`: sortable by time, unique enough for one machine's downloads folder. */
export function makeBundleId(now: number, random: () => number = Math.random): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  const suffix = Array.from({ length: 6 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(random() * 36)]).join('');
  return `afr-${stamp}-${suffix}`;
}

/** Bundle ids are also file names: only this shape is accepted from callers. */
export const BUNDLE_ID_PATTERN = /^afr-\d{8}T\d{6}Z-[a-z0-9]{6}$/;
