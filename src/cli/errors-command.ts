import { errorsText } from '../reads/render-text';
import { readErrors } from '../reads/signals';
import { EXIT_OK } from './command';
import { readCommand } from './read-command';

export const errorsCommand = readCommand(
  'errors',
  `  afr errors <bundle.zip> [--json]
      the failure with its stack, the signals before it, what went wrong while recording`,
  async ({ reader, ask, show }) => {
    const view = await readErrors(reader);
    show(view, errorsText(view, ask));
    return EXIT_OK;
  },
);
