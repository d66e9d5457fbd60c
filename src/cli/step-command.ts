import { stepText } from '../reads/render-text';
import { readStep } from '../reads/steps';
import { EXIT_OK } from './command';
import { readCommand } from './read-command';

export const stepCommand = readCommand(
  'step',
  `  afr step <bundle.zip> <N> [--json]
      step N with its target, goal, detail, the page's changes and its frame`,
  async ({ args, reader, ask, show }) => {
    const view = await readStep(reader, args.index!);
    show(view, stepText(view, ask));
    return EXIT_OK;
  },
);
