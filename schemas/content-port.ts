// What the content scripts and the service worker agree on besides message shapes: plain constants,
// no imports, so that both sides (and the page's own world) can take them without pulling in the other.

/** Name of the content scripts' port to the background (`chrome.runtime.connect({ name })`). */
export const CONTENT_PORT_NAME = 'afr-content';
/**
 * The same port, opened by a document whose previous port the background dropped (its service worker
 * stopped): a document that loaded before the new worker started, which the top document's next report
 * takes into account.
 */
export const CONTENT_PORT_AGAIN_NAME = 'afr-content-again';

/** After a message went to the background, steps wait at most this long and go together. */
export const STEP_BATCH_WINDOW_MS = 100;

/**
 * How long after a failure the background waits before reading the steps that led to it: a step
 * observed just before the signal may still be waiting in its page's batch, then in transit.
 */
export const STEPS_IN_FLIGHT_MS = STEP_BATCH_WINDOW_MS + 150;

/** A page's error report is capped at these lengths (the worker compares reports within them). */
export const PAGE_ERROR_LIMITS = { messageChars: 4096, stackChars: 16 * 1024 } as const;

/**
 * Bounds of the DOM timeline a top frame sends (`timeline/start`, `timeline/base-part`,
 * `timeline/entries`): the worker refuses a message past them. `messageChars`: the message as JSON;
 * a base sent in parts is held to `records` and `messageChars` as a whole, in at most `baseParts` messages.
 */
export const TIMELINE_LIMITS = {
  records: 200_000,
  batchEntries: 2_000,
  messageChars: 16 * 1024 * 1024,
  labelChars: 200,
  baseParts: 1_000,
} as const;

/**
 * A base past this many estimated bytes (JSON characters) is sent in parts of about this size, one
 * per task: posting a message clones it on the page's main thread in one go.
 */
export const TIMELINE_BASE_PART_BYTES = 256 * 1024;

/** A page's timeline entries wait at most this long before they go to the background. */
export const TIMELINE_FLUSH_MS = 500;

/** Label of the checkpoint a document takes once its timeline has started (the page as it loaded). */
export const LOAD_PAGE_LABEL = 'load page';

/** Label of the checkpoint a document takes as it is left (`pagehide`). */
export const LEAVE_PAGE_LABEL = 'leave page';

/** Version of the DOM timeline's data (`TimelineDataSchema`); here so the page side reads it without the schemas. */
export const TIMELINE_VERSION = 1;
