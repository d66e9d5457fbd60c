import type { KeyValueStore } from '../settings/settings-store';
import { browser } from 'wxt/browser';
import type { Storage } from 'webextension-polyfill';

/** `KeyValueStore` over a `chrome.storage` area. */
export class ChromeStorage implements KeyValueStore {
  constructor(private readonly area: Storage.StorageArea = browser.storage.local) {}

  async get(key: string): Promise<unknown> {
    return (await this.area.get(key))[key];
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.area.set({ [key]: value });
  }
}
