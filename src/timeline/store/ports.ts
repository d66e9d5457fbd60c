import type { TimelineData, TimelineEntry } from '../../../schemas/timeline';

/** What the worker knows of one recorded document without reading its base or its changes. */
export interface TimelineDocMeta {
  documentId: string;
  tabId: number;
  /** When the document's recording started (its base's time when it came). */
  startedAt: number;
  /** The time of the newest entry (or of the start). */
  updatedAt: number;
  /** Entries received so far: the `first` the next batch must carry. */
  received: number;
  /** A batch went missing: the later ones are dropped (the pages kept before the gap stay readable). */
  broken: boolean;
  /** Estimated bytes of the base (JSON characters). */
  baseBytes: number;
  /** The batches of entries kept after the base, oldest first. */
  chunks: { n: number; lastAt: number; bytes: number }[];
  nextChunk: number;
}

/** Where the DOM timeline is kept (IndexedDB in the extension, memory in tests). */
export interface TimelineStorage {
  loadMetas(): Promise<TimelineDocMeta[]>;
  putMeta(meta: TimelineDocMeta): Promise<void>;
  /** The document's base, as timeline data without entries. */
  putBase(documentId: string, base: TimelineData): Promise<void>;
  getBase(documentId: string): Promise<TimelineData | null>;
  putChunk(documentId: string, n: number, entries: TimelineEntry[]): Promise<void>;
  /** The chunks asked for, in the order asked; a missing one is an empty list. */
  getChunks(documentId: string, ns: readonly number[]): Promise<TimelineEntry[][]>;
  deleteChunks(documentId: string, ns: readonly number[]): Promise<void>;
  /** The document's meta, base and chunks. */
  deleteDocument(documentId: string): Promise<void>;
}
