import { DEFAULT_DOM_OPTIONS, domOptions, readDom } from '../reads/dom-outline';
import { domText } from '../reads/render-text';
import { EXIT_OK } from './command';
import { readCommand } from './read-command';

export const domCommand = readCommand(
  'dom',
  `  afr dom <bundle.zip> [--step N] [--depth D] [--selector CSS | --node ID] [--max-nodes N] [--json]
      the outline of the page (depth ${DEFAULT_DOM_OPTIONS.depth}, ${DEFAULT_DOM_OPTIONS.maxNodes} nodes), scoped to a selector's matches or a node`,
  async ({ args, reader, ask, show }) => {
    const view = await readDom(reader, domOptions(args));
    show(view, domText(view, ask));
    return EXIT_OK;
  },
);
