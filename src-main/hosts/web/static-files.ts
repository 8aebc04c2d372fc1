import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, normalize, resolve, sep } from 'node:path';
import { MESSAGES } from '@shared/messages';
import { contentTypeOf, isRendererFileType } from '../mime';
import { decodePath, securityHeaders, sendJson, type HostRequest } from './http';

/**
 * The built renderer: its files, and for any route that is not a file the index with the per-launch secret
 * (single-page app). index.html itself is never served raw (it would lack the secret).
 */
export function createStaticFiles(options: { rendererDir: string; secret: string }) {
  const rendererDir = resolve(options.rendererDir);
  const indexHtml = readFileSync(join(rendererDir, 'index.html'), 'utf8').replace(
    '<head>',
    `<head>\n    <meta name="backoffice-web-secret" content="${options.secret}" />`,
  );

  return async function serveStatic({ request, response, url }: HostRequest): Promise<void> {
    securityHeaders(response);
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, { errorMsg: MESSAGES.routeNotFound });
    const pathname = url.pathname;
    const decoded = decodePath(pathname);
    if (decoded === null) return sendJson(response, 400, { errorMsg: MESSAGES.badUrl });
    const candidate = normalize(join(rendererDir, decoded));
    if (candidate.startsWith(rendererDir + sep) && !candidate.endsWith(`${sep}index.html`)) {
      const info = await stat(candidate).catch(() => null);
      if (info?.isFile()) {
        response.writeHead(200, {
          'content-type': contentTypeOf(candidate),
          'content-length': info.size,
          'cache-control': pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
        if (request.method === 'HEAD') return void response.end();
        createReadStream(candidate).pipe(response);
        return;
      }
      if (isRendererFileType(pathname)) return sendJson(response, 404, { errorMsg: MESSAGES.routeNotFound });
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : indexHtml);
  };
}
