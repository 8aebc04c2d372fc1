import { extname } from 'node:path';

/** Content types of the built renderer's files, for both hosts (app:// in Electron, HTTP in the browser). */
const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json',
};

export function contentTypeOf(file: string): string {
  return MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Whether a path names a file of the kinds the renderer is built into: a missing one is a 404, while any other path
 * is a route of the single-page app, dots and all (/adverts/edit/project-SANOFA - Cardio - SANCAR26-1.2).
 */
export function isRendererFileType(path: string): boolean {
  return extname(path).toLowerCase() in MIME;
}
