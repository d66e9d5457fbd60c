const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `12 B`, `340 KiB`, `4.1 MiB`, `1.50 GiB` (binary units, like the settings' byte caps). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '?';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  if (bytes < 1024 ** 2) return `${Math.round(bytes / 1024)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/** `0.4 s`, `12.3 s`, `2 min 5 s`, `1 h 2 min`, `3 d 4 h`; `–` for null (nothing held yet). */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '\u2013';
  const t = Math.max(0, ms);
  if (t < 60_000) return `${(t / 1000).toFixed(1)} s`;
  const s = Math.floor(t / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
}

/** `just now`, `42 s ago`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function formatAgo(thenMs: number, nowMs: number): string {
  const s = Math.floor((nowMs - thenMs) / 1000);
  if (!Number.isFinite(s)) return '?';
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** `2026-11-22 14:39:04` in the operator's own time zone (these pages run on the recording machine). */
export function formatLocalDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** `1.8 fps` */
export function formatFps(fps: number): string {
  return `${fps.toFixed(1)} fps`;
}

/** `1 bundle`, `3 bundles` */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
