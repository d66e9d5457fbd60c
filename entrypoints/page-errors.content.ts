import { defineContentScript } from 'wxt/utils/define-content-script';
import { installPageErrorForwarder } from '../src/page/page-errors';

/**
 * Runs in the page's own world, before page scripts, in the top frame only: forwards uncaught errors
 * and unhandled rejections to the isolated content script (`content.ts`), which reports them as
 * `signal/page-error`. The background prefers `Runtime.exceptionThrown` from its debugger session and
 * uses these only when the debugger is not attached.
 */
export default defineContentScript({
  matches: ['<all_urls>'],
  world: 'MAIN',
  runAt: 'document_start',
  allFrames: false,
  main() {
    installPageErrorForwarder(window);
  },
});
