import type * as DuckDbApi from '@duckdb/node-api';
import { compactSql } from './index-compaction';

/*
 * DuckDB for `afr index compact` and for reading compacted days. `@duckdb/node-api` ships native
 * bindings per platform; it is loaded on use, so the other commands neither pay for it nor need it. It
 * is not part of `afr` (the packaged CLI bundles no native module): these two need it installed beside it.
 */

type DuckDb = typeof DuckDbApi;

async function duckdb(): Promise<DuckDb> {
  const name = '@duckdb/node-api';
  try {
    return (await import(/* @vite-ignore */ name)) as DuckDb;
  } catch (error) {
    throw new Error(`reading or writing Parquet needs @duckdb/node-api (npm install @duckdb/node-api): ${(error as Error).message}`);
  }
}

/** Writes the newline-delimited index records of `ndjsonFile` as one Parquet file through `COPY … (FORMAT parquet)`. */
export async function writeParquet(ndjsonFile: string, parquetFile: string): Promise<void> {
  const { DuckDBInstance } = await duckdb();
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    await connection.run(compactSql(ndjsonFile, parquetFile));
  } finally {
    connection.closeSync();
  }
}

/**
 * The rows of a Parquet file, a chunk (2,048 rows) at a time, as JSON values. DuckDB writes each row as
 * JSON text (`to_json`): one text column converts about three times faster than the client's per-value
 * conversion of every column (10,000 index rows: 1.4 s against 4.1 s here).
 */
export async function* readParquetRows(parquetFile: string): AsyncIterable<Record<string, unknown>> {
  const { DuckDBInstance } = await duckdb();
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    const result = await connection.stream('SELECT to_json(t)::VARCHAR AS row FROM read_parquet($file) AS t', { file: parquetFile });
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) return;
      const column = chunk.getColumnVector(0);
      for (let i = 0; i < chunk.rowCount; i++) yield JSON.parse(String(column.getItem(i))) as Record<string, unknown>;
    }
  } finally {
    connection.closeSync();
  }
}
