import { pageRequest } from '../reads/paging';
import { consoleText } from '../reads/render-text';
import { listConsole } from '../reads/signals';
import { EXIT_OK } from './command';
import { readCommand } from './read-command';

/** One entry in `afr --help` for `console` and `requests`, which read alike. */
export const SIGNAL_PAGES_USAGE = `  afr console|requests <bundle.zip> [--page N] [--page-size N] [--json]
      the console errors / failed requests the recorder kept, paged`;

export const consoleCommand = readCommand('console', SIGNAL_PAGES_USAGE, async ({ args, reader, ask, show }) => {
  const page = await listConsole(reader, pageRequest(args.page, args.pageSize));
  show(page, consoleText(page, ask));
  return EXIT_OK;
});
