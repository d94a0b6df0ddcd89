import type { EntityMetadata } from 'typeorm';

// `updated AS (UPDATE ...)`, a CTE that writes a row whole, every column but the key, from the row as
// JSON in parameter `$param` (JSON.stringify of the entity). For a row the transaction has locked and
// read: one statement of the caller's, with whatever else it writes in the same statement.
export function wholeRowUpdateSql(metadata: EntityMetadata, key: string, param: number): string {
  const table = `"${metadata.schema}"."${metadata.tableName}"`;
  const columns = metadata.columns.map((column) => column.databaseName).filter((column) => column !== key);
  return `updated AS (
       UPDATE ${table} AS t SET ${columns.map((column) => `"${column}" = r."${column}"`).join(', ')}
         FROM jsonb_populate_record(NULL::${table}, $${param}) AS r WHERE t."${key}" = r."${key}"
     )`;
}
