import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The AsyncAPI 3 document of the streams, subjects and payloads (asyncapi.json, rendered from this
// library by scripts/render-asyncapi.ts), read once.
let document: unknown;

export function loadAsyncApiDocument(): unknown {
  document ??= JSON.parse(readFileSync(join(__dirname, 'asyncapi.json'), 'utf8'));
  return document;
}
