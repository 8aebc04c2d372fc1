import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { MESSAGES } from '@shared/messages';
import { contentTypeOf, isRendererFileType } from '../mime';
import { decodePath, securityHeaders, sendJson, type HostRequest } from './http';

/**
 * The renderer's files, read once at start (about 2 MB): the host serves its own copy, so a build that replaces
 * out/renderer while it runs never leaves an open page without the chunks it loads later. Source maps stay on
 * disk (hidden maps: no page asks for them).
 */
function readRenderer(rendererDir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(rendererDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.map')) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(`/${relative(rendererDir, path).split(sep).join('/')}`, readFileSync(path));
  }
  return files;
}

/**
 * The built renderer: its files, and for any route that is not a file the index with the per-launch secret
 * (single-page app). index.html itself is never served raw (it would lack the secret).
 */
export function createStaticFiles(options: { rendererDir: string; secret: string; reload?: boolean }) {
  const rendererDir = resolve(options.rendererDir);
  const indexPath = join(rendererDir, 'index.html');
  let files = new Map<string, Buffer>();
  let indexHtml = '';
  let indexTime = 0;
  const load = () => {
    files = readRenderer(rendererDir);
    const index = files.get('/index.html');
    if (!index) throw new Error(`no index.html in ${options.rendererDir}: build the renderer first`);
    indexHtml = index.toString('utf8').replace('<head>', `<head>\n    <meta name="backoffice-web-secret" content="${options.secret}" />`);
    indexTime = statSync(indexPath).mtimeMs;
  };
  load();

  return async function serveStatic({ request, response, url }: HostRequest): Promise<void> {
    securityHeaders(response);
    // A watch build writes its chunks, then the index: a new index means a finished build. Old chunks stay
    // (the watch build does not empty its folder), so an open page keeps working until it is reloaded.
    const written = options.reload ? statSync(indexPath, { throwIfNoEntry: false })?.mtimeMs : undefined;
    if (written !== undefined && written !== indexTime) load();
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, { errorMsg: MESSAGES.routeNotFound });
    const pathname = url.pathname;
    const decoded = decodePath(pathname);
    if (decoded === null) return sendJson(response, 400, { errorMsg: MESSAGES.badUrl });
    // Keys are exact file paths: `..`, `%2f` or a doubled slash name no file.
    const body = decoded === '/index.html' ? undefined : files.get(decoded);
    if (body) {
      response.writeHead(200, {
        'content-type': contentTypeOf(decoded),
        'content-length': body.length,
        'cache-control': pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
      response.end(request.method === 'HEAD' ? undefined : body);
      return;
    }
    if (isRendererFileType(pathname)) return sendJson(response, 404, { errorMsg: MESSAGES.routeNotFound });
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : indexHtml);
  };
}
