import { z } from 'zod/mini';

/**
 * zod's `mini` build, for the schemas content scripts parse with (`content-messages.ts`,
 * `page-protocol.ts`, `agent.ts`, `redaction-rules.ts`, `capture-level.ts`). A content script runs
 * in every frame of every page, before the page's parser, and builds every schema it imports: a
 * `mini` schema costs less to build (classic zod wires up its whole chaining API on each), and `mini`
 * bundles only what is used (classic brings its JSON Schema code along). Built with classic zod, the
 * content script's schemas held up each document's DOMContentLoaded by 6–8 ms more. The rest of the code mixes them freely with
 * classic ones: both are zod's core types (`z.object({ level: CaptureLevelSchema })`, `z.toJSONSchema`).
 * Its error messages are those of classic zod (English), which `mini` leaves to be configured.
 */
z.config(z.locales.en());

export { z };
