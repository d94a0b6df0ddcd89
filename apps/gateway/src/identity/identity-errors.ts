import { isUUID } from 'class-validator';

export class UnknownAccountError extends Error {}
export class UnknownKeyError extends Error {}

// Ids are UUIDs; anything else names nothing (and never reaches a uuid column as a database error).
export function checkedId(id: string, unknown: new (message: string) => Error, what: string): string {
  const lowered = id.toLowerCase();
  if (!isUUID(lowered)) throw new unknown(`no ${what} ${id}`);
  return lowered;
}
