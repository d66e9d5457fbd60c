import { errorMessage } from '../shared/error-message';

/** Why a file could not be read, in words (Node's `code`, else the message). */
export function describeReadError(file: string, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return `${file}: no such file`;
  if (code === 'EISDIR') return `${file}: is a directory, not a bundle zip`;
  if (code === 'EACCES') return `${file}: permission denied`;
  return `${file}: cannot read (${errorMessage(error)})`;
}
