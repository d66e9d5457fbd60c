/**
 * Where `afr mcp` finds bundles: a folder of zips (`bundle-folder.ts`), a running browser's recorder
 * (`browser-bundles.ts`), or both. The MCP server asks it by the `bundle` argument a model passes.
 */
export interface BundleSource {
  /** The bundles it holds, newest first. `notes` says what could not be listed (a folder that does not exist, a browser not reached). */
  list(): Promise<{ bundles: BundleEntry[]; notes: string[] }>;
  /**
   * The zip of `bundle`: an id `list` returned, or a zip path inside the folder. Throws
   * `BundleReadError` (one line) for anything else, a path outside the folder included.
   */
  read(bundle: string): Promise<Uint8Array>;
  /** Whether `bundle` can name one of its bundles at all (a browser's ids are never paths); absent: any. */
  names?(bundle: string): boolean;
}

/** One bundle as `list_bundles` shows it. */
export interface BundleEntry {
  /** What the other tools take as `bundle`: the zip's name without `.zip` in the folder, the recorder's id in the browser. */
  id: string;
  source: 'folder' | 'browser';
  /** ISO time: the file's modification time, or when the recorder stored it. */
  created_at: string;
  bytes: number;
  /** The failure's reason and label, when the browser's recorder lists them (a folder's zips are not opened to list them). */
  reason: string | null;
  label: string | null;
}

/** Both sources: a folder's bundles and a browser's, listed together; an id is looked up in the folder first. */
export function combinedSources(sources: readonly BundleSource[]): BundleSource {
  return {
    async list() {
      const lists = await Promise.all(sources.map((s) => s.list()));
      const bundles = lists.flatMap((l) => l.bundles).sort((a, b) => b.created_at.localeCompare(a.created_at));
      return { bundles, notes: lists.flatMap((l) => l.notes) };
    },
    async read(bundle) {
      let last: unknown;
      for (const source of sources.filter((s) => s.names?.(bundle) ?? true)) {
        try {
          return await source.read(bundle);
        } catch (error) {
          last = error;
        }
      }
      throw last;
    },
  };
}
