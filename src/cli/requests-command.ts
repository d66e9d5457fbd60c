import { pageRequest } from '../reads/paging';
import { requestsText } from '../reads/render-text';
import { listRequests } from '../reads/signals';
import { EXIT_OK } from './command';
import { SIGNAL_PAGES_USAGE } from './console-command';
import { readCommand } from './read-command';

export const requestsCommand = readCommand('requests', SIGNAL_PAGES_USAGE, async ({ args, reader, ask, show }) => {
  const page = await listRequests(reader, pageRequest(args.page, args.pageSize));
  show(page, requestsText(page, ask));
  return EXIT_OK;
});
