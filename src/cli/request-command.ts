import { NETWORK_HAR_FILE } from '../bundle-format/file-names';
import { readHarRequest } from '../reads/network';
import { harRequestText } from '../reads/render-network';
import { EXIT_OK } from './command';
import { readCommand } from './read-command';

export const requestCommand = readCommand(
  'request',
  `  afr request <bundle.zip> <N> [--json]
      request N of ${NETWORK_HAR_FILE} (as afr requests numbers it): request and response headers, query,
      cookies, both bodies (JSON pretty-printed, the recorder's masks shown as they are), bounded`,
  async ({ args, reader, ask, show }) => {
    const view = await readHarRequest(reader, args.index!);
    show(view, harRequestText(view, ask));
    return EXIT_OK;
  },
);
