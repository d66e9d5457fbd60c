import { NETWORK_HAR_FILE } from '../bundle-format/file-names';
import { hasHar, listHarRequests } from '../reads/network';
import { pageRequest } from '../reads/paging';
import { harRequestsText } from '../reads/render-network';
import { failedRequestsAsker, requestsText } from '../reads/render-text';
import { listRequests } from '../reads/signals';
import { EXIT_OK } from './command';
import { readCommand } from './read-command';

/** Said when a bundle has no HAR: what the list shows instead. */
const NO_HAR_NOTE = `${NETWORK_HAR_FILE} is missing from this bundle (written before the network log, or of no tab): these are the failed requests diagnostics.json kept`;

export const requestsCommand = readCommand(
  'requests',
  `  afr requests <bundle.zip> [--failed] [--page N] [--page-size N] [--json]
      every request of ${NETWORK_HAR_FILE} (index, time, method, status, type, size, duration, URL, the step
      that caused it), paged; --failed, or a bundle without ${NETWORK_HAR_FILE}: the failed requests
      diagnostics.json kept`,
  async ({ args, reader, ask, show }) => {
    const request = pageRequest(args.page, args.pageSize);
    if (!args.failed && hasHar(reader)) {
      const page = await listHarRequests(reader, request);
      show({ source: NETWORK_HAR_FILE, ...page }, harRequestsText(page, ask));
      return EXIT_OK;
    }
    const page = await listRequests(reader, request);
    const note = args.failed ? null : NO_HAR_NOTE;
    show({ source: 'diagnostics.json', ...(note ? { note } : {}), ...page }, [...(note ? [`note: ${note}`] : []), ...requestsText(page, args.failed ? failedRequestsAsker(ask) : ask)]);
    return EXIT_OK;
  },
);
