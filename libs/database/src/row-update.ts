import type { EntityMetadata } from 'typeorm';

// `updated AS (UPDATE ...)`, a CTE that writes a row whole, every column but the key, from the row as
// JSON in parameter `$param` (JSON.stringify of the entity), and returns its key. For a row the
// transaction has locked and read, or, with `versionParam`, one read without a lock: `$versionParam` is
// the row's xmin as read (`xmin::text`), and the update writes nothing if another statement changed the
// row since (PostgreSQL checks the condition again on the newest version of the row).
export function wholeRowUpdateSql(metadata: EntityMetadata, key: string, param: number, versionParam?: number): string {
  const table = `"${metadata.schema}"."${metadata.tableName}"`;
  const columns = metadata.columns.map((column) => column.databaseName).filter((column) => column !== key);
  const unchanged = versionParam === undefined ? '' : ` AND t."xmin" = $${versionParam}::xid`;
  return `updated AS (
       UPDATE ${table} AS t SET ${columns.map((column) => `"${column}" = r."${column}"`).join(', ')}
         FROM jsonb_populate_record(NULL::${table}, $${param}) AS r WHERE t."${key}" = r."${key}"${unchanged}
         RETURNING t."${key}"
     )`;
}
