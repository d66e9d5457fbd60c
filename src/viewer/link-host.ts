/**
 * Where a link's host is, as far as its name tells: this machine (`localhost`, `*.localhost`,
 * 127.0.0.0/8, ::1), a private or local network (10/8, 172.16/12, 192.168/16, 169.254/16 link-local
 * and cloud metadata, 100.64/10 shared, 0/8, fc00::/7, fe80::/10, `*.local`, `*.internal`, and IPv4
 * mapped into IPv6 the same), or anywhere else. A host name that resolves to a private address cannot
 * be told from here (an extension page has no DNS lookup): only literal addresses and reserved names are.
 */
export type HostKind = 'loopback' | 'private' | 'public';

/** `hostname` as `URL.hostname` gives it: lowercase, IPv4 in dotted decimal (`0x7f.1` is `127.0.0.1`), IPv6 in brackets. */
export function hostKind(hostname: string): HostKind {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (host.endsWith('.local') || host.endsWith('.internal')) return 'private';
  const v4 = ipv4Of(host);
  if (v4) return ipv4Kind(v4);
  if (host.startsWith('[') && host.endsWith(']')) return ipv6Kind(host.slice(1, -1));
  return 'public';
}

function ipv4Of(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

function ipv4Kind([a, b]: number[]): HostKind {
  if (a === 127) return 'loopback';
  if (a === 0 || a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b! >= 64 && b! <= 127)) return 'private';
  return 'public';
}

function ipv6Kind(address: string): HostKind {
  if (address === '::1') return 'loopback';
  if (address === '::') return 'private';
  // IPv4-mapped (::ffff:a.b.c.d, which URL writes ::ffff:7f00:1): the IPv4 address decides.
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return ipv4Kind([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  }
  const first = parseInt(address.split(':')[0] || '0', 16);
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80) return 'private';
  return 'public';
}
