import { escapeControls } from '../shared/control-chars';

/**
 * A read of a bundle that cannot be answered: the file is not a zip or not a bundle, an index is out of
 * range, an argument is wrong. `message` is one line, fit for a terminal or an MCP error result; the
 * command line and the MCP server show it as it is, never a stack trace. Messages name files and values
 * from the bundle (quoted where they are built): the message is escaped once more here, so whatever a
 * name held, it cannot break the line, drive a terminal or read backwards.
 */
export class BundleReadError extends Error {
  override readonly name = 'BundleReadError';
  constructor(
    message: string,
    /** `input`: the bundle cannot be read; `argument`: the request does not fit the bundle (an index, a selector). */
    readonly kind: 'input' | 'argument' = 'input',
  ) {
    super(escapeControls(message));
  }
}
