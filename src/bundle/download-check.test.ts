import { describe, expect, it, vi } from 'vitest';
import { DownloadCheck, judgeDownload, type DownloadOutcome } from './download-check';

const ID = 'afr-20261122T143904Z-avyj8w';
const complete = (filename: string): DownloadOutcome => ({ state: 'complete', filename, error: null });

describe('judgeDownload', () => {
  it.each([
    ['Chrome’s own folder', `/home/ada/Downloads/agent-flight-recorder/${ID}.zip`],
    ['a name Chrome made unique', `/home/ada/Downloads/agent-flight-recorder/${ID} (1).zip`],
    ['a Windows path', `C:\\Users\\ada\\Downloads\\agent-flight-recorder\\${ID}.zip`],
  ])('trusts %s', (_, filename) => {
    expect(judgeDownload(ID, complete(filename))).toEqual({ lastBundleId: ID, lastPath: filename, state: 'complete', error: null, managedByDriver: false, hint: null });
  });

  it.each([
    // What Chromium 156 reported under Playwright, without and with `downloadsPath`.
    ['Playwright’s artifacts folder', '/tmp/playwright-artifacts-Dd28Up/c5f46ded-2536-44c6-ba05-239d8c7af66a'],
    ['Playwright’s downloadsPath', '/tmp/dl-N48wJU/38c231d2-3fd7-497f-ac39-f0ee79bc1120'],
    ['another folder', `/srv/out/${ID}.zip`],
    ['another bundle’s name', '/home/ada/Downloads/agent-flight-recorder/afr-20261122T143904Z-zzzzzz.zip'],
  ])('says a download to %s is managed by the driver, and how to keep bundles', (_, filename) => {
    const verdict = judgeDownload(ID, complete(filename));
    expect(verdict).toMatchObject({ lastPath: filename, managedByDriver: true });
    expect(verdict.hint).toContain(`as ${filename}, not <downloads>/agent-flight-recorder/${ID}.zip`);
    expect(verdict.hint).toContain('rec.saveBundle');
  });

  it('says an interrupted download (Playwright acceptDownloads: false) was not saved', () => {
    const verdict = judgeDownload(ID, { state: 'interrupted', filename: '', error: 'USER_CANCELED' });
    expect(verdict).toMatchObject({ lastPath: null, state: 'interrupted', error: 'USER_CANCELED', managedByDriver: false });
    expect(verdict.hint).toMatch(/did not save bundle .* \(USER_CANCELED\).*acceptDownloads: false/);
  });
});

describe('DownloadCheck', () => {
  it('hands back the download id at once, records the verdict once the download ends, and warns once', async () => {
    const ended: ((outcome: DownloadOutcome) => void)[] = [];
    const log = vi.fn();
    const check = new DownloadCheck((id) => new Promise((resolve) => (ended[id] = resolve)), log);
    let next = 1;
    const download = check.checked(async () => next++);

    expect(await download(ID, new Uint8Array([1]))).toBe(1);
    expect(check.status()).toMatchObject({ lastPath: null, managedByDriver: false });
    ended[1]!(complete('/tmp/playwright-artifacts-x/uuid-1'));
    await vi.waitFor(() => expect(check.status()).toMatchObject({ lastBundleId: ID, lastPath: '/tmp/playwright-artifacts-x/uuid-1', managedByDriver: true }));

    await download(ID, new Uint8Array([1]));
    ended[2]!(complete('/tmp/playwright-artifacts-x/uuid-2'));
    await vi.waitFor(() => expect(check.status().lastPath).toBe('/tmp/playwright-artifacts-x/uuid-2'));
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toMatch(/^\[afr\] downloaded bundles will not last: Chrome saved bundle/);
  });

  it('logs a download it could not follow, and keeps the last verdict', async () => {
    const log = vi.fn();
    const check = new DownloadCheck(async () => Promise.reject(new Error('downloads API gone')), log);
    await check.follow(ID, 4);
    expect(log).toHaveBeenCalledWith(`[afr] download 4 of ${ID} not checked: Error: downloads API gone`);
    expect(check.status().lastBundleId).toBeNull();
  });
});
