import { z } from 'zod/mini';

/**
 * zod's `mini` build, for the schemas content scripts parse with (`content-messages.ts`,
 * `page-protocol.ts`, `agent.ts`, `redaction-rules.ts`, `capture-level.ts`). A content script runs
 * in every frame of every page, before the page's parser, and builds every schema it imports: a
 * `mini` schema costs less to build (classic zod gives each one more, such as its JSON Schema hook
 * and a copy per chained check), and `mini` bundles only what is used (classic brings its JSON Schema
 * code along). Built with classic zod, the content script's schemas held up each document's
 * DOMContentLoaded by 3–5 ms more (bench section 5). The rest of the code mixes them freely with
 * classic ones: both are zod's core types (`z.object({ level: CaptureLevelSchema })`,
 * `z.toJSONSchema`); a `mini` schema's errors are core `$ZodError`s (`issues`, no `flatten()`).
 * Its messages are classic zod's (English), which `mini` leaves to be configured.
 */
z.config(z.locales.en());

export { z };
