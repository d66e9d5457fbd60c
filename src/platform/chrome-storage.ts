import type { KeyValueStore } from '../settings/settings-store';
import { browser, type Browser } from 'wxt/browser';

/** `KeyValueStore` over a `chrome.storage` area. */
export class ChromeStorage implements KeyValueStore {
  constructor(private readonly area: Browser.storage.StorageArea = browser.storage.local) {}

  async get(key: string): Promise<unknown> {
    return (await this.area.get(key))[key];
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.area.set({ [key]: value });
  }
}
