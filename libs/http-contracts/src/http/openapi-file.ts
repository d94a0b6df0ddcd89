import { join } from 'node:path';

// The API's OpenAPI document as committed (openapi.json, written by scripts/render-openapi.ts from the
// gateway's routes): the SDK's types are generated from it, and the gateway serves the same document.
export const OPENAPI_FILE = join(__dirname, 'openapi.json');
