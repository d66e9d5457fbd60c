/**
 * A read of a bundle that cannot be answered: the file is not a zip or not a bundle, an index is out of
 * range, an argument is wrong. `message` is one line, fit for a terminal or an MCP error result; the
 * command line and the MCP server show it as it is, never a stack trace.
 */
export class BundleReadError extends Error {
  override readonly name = 'BundleReadError';
  constructor(
    message: string,
    /** `input`: the bundle cannot be read; `argument`: the request does not fit the bundle (an index, a selector). */
    readonly kind: 'input' | 'argument' = 'input',
  ) {
    super(message);
  }
}
