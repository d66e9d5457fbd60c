import { normalizePrefix } from '../bundle-format/bucket-layout';

/*
 * `afr index compact`: one Parquet file per day of index records, beside the loose objects it was made
 * from (kept: a late delivery still lands among them, and readers add the loose objects the file does
 * not hold). The columns are fixed here, not inferred, so every day's file has the same schema.
 */

/** `YYYY-MM-DD` → `yyyy/mm/dd`; throws a usage message on anything else. */
export function dayPath(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) throw new Error(`--day wants a date as YYYY-MM-DD, not "${day}"`);
  return `${match[1]}/${match[2]}/${match[3]}`;
}

const under = (prefix: string, rest: string) => {
  const root = normalizePrefix(prefix);
  return root ? `${root}/${rest}` : rest;
};

/** `<prefix>/index-compact/<yyyy>/<mm>/<dd>.parquet` */
export function compactKey(prefix: string, day: string): string {
  return under(prefix, `index-compact/${dayPath(day)}.parquet`);
}

/** `<prefix>/index-compact/`: what a reader lists once to know the compacted days. */
export const compactPrefix = (prefix: string) => under(prefix, 'index-compact/');

/** The day prefix of the loose objects (`…/index/yyyy/mm/dd/`) a compacted key stands for, or null. */
export function looseDayOf(compactedKey: string): string | null {
  const match = /^(.*?)index-compact\/(\d{4}\/\d{2}\/\d{2})\.parquet$/.exec(compactedKey);
  return match ? `${match[1]}index/${match[2]}/` : null;
}

/** The index record's columns as DuckDB reads them from JSON and writes them to Parquet (`schemas/upload.ts`). */
export const INDEX_COLUMNS: Record<string, string> = {
  index_version: 'INTEGER',
  bundle_id: 'VARCHAR',
  run_id: 'VARCHAR',
  agent: 'VARCHAR',
  agent_version: 'VARCHAR',
  status: 'VARCHAR',
  reason: 'VARCHAR',
  label: 'VARCHAR',
  url: 'VARCHAR',
  started_at: 'VARCHAR',
  ended_at: 'VARCHAR',
  frame_count: 'BIGINT',
  size_bytes: 'BIGINT',
  sha256: 'VARCHAR',
  zip_key: 'VARCHAR',
  extension_version: 'VARCHAR',
  browser_version: 'VARCHAR',
  fingerprint: 'VARCHAR',
  signature: 'STRUCT(reason VARCHAR, message VARCHAR, page VARCHAR, request VARCHAR, frames VARCHAR[], step VARCHAR)',
};

const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The statement that writes newline-delimited index records as Parquet, ordered (by end, then id) so
 * the same records always make the same file.
 */
export function compactSql(ndjsonFile: string, parquetFile: string): string {
  const columns = Object.entries(INDEX_COLUMNS).map(([name, type]) => `${name}: ${sqlString(type)}`).join(', ');
  return `COPY (SELECT * FROM read_json(${sqlString(ndjsonFile)}, format = 'newline_delimited', columns = {${columns}}) ORDER BY ended_at, bundle_id) TO ${sqlString(parquetFile)} (FORMAT parquet, COMPRESSION zstd)`;
}

/**
 * A row of a compacted file as an index object: DuckDB gives absent optional fields as null and
 * BIGINT as text; the record's schema wants them absent and numbers. Checked by the caller.
 */
export function rowToIndexObject(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const name of ['fingerprint', 'signature']) if (out[name] === null) delete out[name];
  for (const name of ['index_version', 'frame_count', 'size_bytes']) if (typeof out[name] === 'string' || typeof out[name] === 'bigint') out[name] = Number(out[name]);
  return out;
}
