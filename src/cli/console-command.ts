import { pageRequest } from '../reads/paging';
import { consoleText } from '../reads/render-text';
import { listConsole } from '../reads/signals';
import { EXIT_OK } from './command';
import { readCommand } from './read-command';

export const consoleCommand = readCommand(
  'console',
  `  afr console <bundle.zip> [--page N] [--page-size N] [--json]
      the console errors the recorder kept, paged`,
  async ({ args, reader, ask, show }) => {
    const page = await listConsole(reader, pageRequest(args.page, args.pageSize));
    show(page, consoleText(page, ask));
    return EXIT_OK;
  },
);
