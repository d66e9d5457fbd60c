import type { KeyValueStore } from '../settings/settings-store';

/** `KeyValueStore` over a `chrome.storage` area. */
export class ChromeStorage implements KeyValueStore {
  constructor(private readonly area: chrome.storage.StorageArea = chrome.storage.local) {}

  async get(key: string): Promise<unknown> {
    return (await this.area.get(key))[key];
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.area.set({ [key]: value });
  }
}
