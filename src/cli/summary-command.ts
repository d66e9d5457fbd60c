import { summaryText } from '../reads/render-text';
import { readSummary } from '../reads/summary';
import { EXIT_OK } from './command';
import { readCommand } from './read-command';

export const summaryCommand = readCommand(
  'summary',
  `  afr summary <bundle.zip> [--json]
      the failure, what the bundle holds, the last steps, and what to read next`,
  async ({ reader, ask, show }) => {
    const view = await readSummary(reader);
    show(view, summaryText(view, ask));
    return EXIT_OK;
  },
);
