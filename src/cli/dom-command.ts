import { DEFAULT_DOM_OPTIONS, readDom } from '../reads/dom-outline';
import { domText } from '../reads/render-text';
import { EXIT_OK } from './command';
import { readCommand } from './read-command';

export const domCommand = readCommand(
  'dom',
  `  afr dom <bundle.zip> [--step N] [--depth D] [--selector CSS | --node ID] [--max-nodes N] [--json]
      the outline of the page (depth ${DEFAULT_DOM_OPTIONS.depth}, ${DEFAULT_DOM_OPTIONS.maxNodes} nodes), scoped to a selector's matches or a node`,
  async ({ args, reader, ask, show }) => {
    const view = await readDom(reader, {
      depth: args.depth ?? DEFAULT_DOM_OPTIONS.depth,
      maxNodes: args.maxNodes ?? DEFAULT_DOM_OPTIONS.maxNodes,
      ...(args.selector !== undefined ? { selector: args.selector } : {}),
      ...(args.node !== undefined ? { node: args.node } : {}),
      ...(args.step !== undefined ? { step: args.step } : {}),
    });
    show(view, domText(view, ask));
    return EXIT_OK;
  },
);
