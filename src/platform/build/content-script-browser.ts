import type { WxtViteConfig } from 'wxt';

/** Vite's `resolve.alias`, in either of its two forms (WXT ships its own Vite, so the types come through WXT). */
export type AliasOptions = NonNullable<NonNullable<WxtViteConfig['resolve']>['alias']>;
type VitePlugin = Extract<NonNullable<WxtViteConfig['plugins']>[number], { name: string }>;

const BROWSER_MODULE = 'wxt/browser';

/*
 * The content script runs in every frame of every page and has a size budget (e2e/content-budget.spec.ts).
 * webextension-polyfill adds about 10 kB to it (content.js 78.9 kB → 88.6 kB), and WXT's own content
 * script context imports `wxt/browser`, so the polyfill would come in even unused. The content script
 * needs no promise the browser does not give already: without the alias, `wxt/browser` is WXT's plain
 * `browser` (Firefox's `browser`, Chrome's `chrome`), and the script itself keeps to `chrome.*`.
 */

/** `alias` without the polyfill's `wxt/browser` entries, for the build of the content scripts. */
export function withoutBrowserPolyfill(alias: AliasOptions | undefined): AliasOptions | undefined {
  if (alias === undefined) return undefined;
  if (Array.isArray(alias)) return alias.filter((entry) => entry.find !== BROWSER_MODULE);
  return Object.fromEntries(Object.entries(alias).filter(([find]) => find !== BROWSER_MODULE));
}

/**
 * Vite plugin for the content scripts' build: takes the polyfill's `wxt/browser` alias out once every
 * other plugin has added its aliases (WXT adds the config's `alias` from a plugin of its own).
 */
export function contentScriptBrowserPlugin(): VitePlugin {
  return {
    name: 'afr-content-script-browser',
    enforce: 'post',
    config(config) {
      if (config.resolve) config.resolve.alias = withoutBrowserPolyfill(config.resolve.alias);
    },
  };
}
