import { pageRequest } from '../reads/paging';
import { stepsText } from '../reads/render-text';
import { listSteps } from '../reads/steps';
import { EXIT_OK } from './command';
import { readCommand } from './read-command';

export const stepsCommand = readCommand(
  'steps',
  `  afr steps <bundle.zip> [--page N] [--page-size N] [--json]
      the steps, oldest first, 20 a page, each with its frame`,
  async ({ args, reader, ask, show }) => {
    const page = await listSteps(reader, pageRequest(args.page, args.pageSize));
    show(page, stepsText(page, ask));
    return EXIT_OK;
  },
);
