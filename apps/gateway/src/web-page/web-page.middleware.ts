import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

// apps/web/dist, built by `npx vite build apps/web` (npm start, npm test and the image run it).
export const WEB_DIST_DIR = resolve(__dirname, '..', '..', '..', 'web', 'dist');

// Paths the API owns: the page never answers them, whatever the build holds.
const API_PATH = /^\/(v1|docs|docs-json|healthz)(\/|$)/;
// Vite's output: index.html and content-hashed files under assets/ (one segment, no dot files).
const ASSET_PATH = /^\/assets\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export const WEB_PAGE_NOT_BUILT = 'The web page is not built. Run `npx vite build apps/web` (npm start and npm test do it), then reload.\n';

// The page loads its own script and style only; it talks to this origin (the API) and to the storage
// endpoint (the upload's PUT, the results' presigned GETs), and plays media from there or from a
// dropped file (blob:). Nothing may frame it.
export function webPageContentSecurityPolicy(storageOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `media-src 'self' blob: ${storageOrigin}`,
    `connect-src 'self' ${storageOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

// The few Express members used here (express ships no typings in this workspace).
interface PageRequest {
  method: string;
  path: string;
}
interface PageResponse {
  readonly headersSent: boolean;
  status(code: number): PageResponse;
  setHeader(name: string, value: string): void;
  end(body?: string): void;
  sendFile(path: string, options: { headers: Record<string, string>; dotfiles: 'deny' }, done: (error?: Error) => void): void;
}

type PageFile = { path: string; cache: string } | 'not-built' | null;

function pageFile(distDir: string, path: string): PageFile {
  if (path === '/' || path === '/index.html') {
    const index = join(distDir, 'index.html');
    // Always asked again: a deployment's new build is picked up at once.
    return existsSync(index) ? { path: index, cache: 'no-cache' } : 'not-built';
  }
  if (!ASSET_PATH.test(path)) return null;
  const asset = join(distDir, path);
  // The name carries the content hash: a changed file has a new name.
  return existsSync(asset) && statSync(asset).isFile() ? { path: asset, cache: 'public, max-age=31536000, immutable' } : null;
}

// Serves the web page (apps/web) at `/` and its assets, public (no API key: the page asks for one and
// sends it to /v1 itself), before the API's routes but never for an API path; anything else falls
// through to the API's 404.
export function webPageMiddleware(options: { distDir: string; storageOrigin: string }) {
  const securityHeaders = {
    'content-security-policy': webPageContentSecurityPolicy(options.storageOrigin),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };
  return (req: PageRequest, res: PageResponse, next: (error?: unknown) => void): void => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || API_PATH.test(req.path)) return next();
    const file = pageFile(options.distDir, req.path);
    if (file === null) return next();
    if (file === 'not-built') {
      res.status(503);
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('cache-control', 'no-store');
      return res.end(WEB_PAGE_NOT_BUILT);
    }
    res.sendFile(file.path, { headers: { ...securityHeaders, 'cache-control': file.cache }, dotfiles: 'deny' }, (error) => {
      // A build replaced while being read: the next request finds the new one.
      if (error && !res.headersSent) res.status(404).end();
    });
  };
}
