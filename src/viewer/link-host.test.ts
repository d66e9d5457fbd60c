import { describe, expect, it } from 'vitest';
import { hostKind } from './link-host';

/** As `URL.hostname` spells them, so that the parser's own forms (hex, decimal, mapped) are covered. */
const host = (url: string) => new URL(url).hostname;

describe('hostKind', () => {
  it.each([
    ['https://localhost/', 'loopback'],
    ['https://store.localhost/', 'loopback'],
    ['http://127.0.0.1:4568/', 'loopback'],
    ['http://127.0.0.2/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://10.1.2.3/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://172.31.255.255/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'private'],
    ['http://100.64.0.1/', 'private'],
    ['http://0.0.0.0/', 'private'],
    ['http://[fc00::1]/', 'private'],
    ['http://[fd12:3456::1]/', 'private'],
    ['http://[fe80::1]/', 'private'],
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://printer.local/', 'private'],
    ['http://metadata.google.internal/', 'private'],
    ['https://runs.s3.amazonaws.com/', 'public'],
    ['https://172.32.0.1/', 'public'],
    ['https://11.0.0.1/', 'public'],
    ['https://[2001:db8::1]/', 'public'],
    ['https://localhost.example.com/', 'public'],
  ])('%s is %s', (url, kind) => {
    expect(hostKind(host(url))).toBe(kind);
  });
});
