import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError } from '@shared/contract';
import { MESSAGES } from '@shared/messages';

/** An error whose message is meant for the user: the error handler sends it as `{ errorMsg }`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Every error answer goes through here, so its shape is the contract's `ApiError`. */
function sendError(reply: FastifyReply, status: number, body: ApiError) {
  return reply.code(status).send(body);
}

/** Where a validation error points, as the caller named it: `username`, `roles.0`, `accountId`. */
function fieldOf(instancePath: string | undefined, params: unknown): string {
  const keys = (params as { keys?: string[] } | undefined)?.keys;
  const path = (instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  if (keys?.length) return [path, keys.join(', ')].filter(Boolean).join('.');
  return path || 'body';
}

/** The one error handler: user-meant errors as they are, validation in French, anything else hidden. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    reply.headers(error.headers);
    return sendError(reply, error.statusCode, { errorMsg: error.message });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const field = fieldOf(first?.instancePath, first?.params);
    const where = error.validationContext === 'querystring' ? 'query' : error.validationContext;
    return sendError(reply, 400, { errorMsg: `${MESSAGES.invalidField} « ${field} » (${where}) : ${first?.message ?? ''}`.trim() });
  }
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
    return sendError(reply, 400, { errorMsg: MESSAGES.invalidJson });
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, 413, { errorMsg: MESSAGES.payloadTooLarge });
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own 4xx (unsupported media type, bad header): say so without internals.
    return sendError(reply, status, { errorMsg: error.message || MESSAGES.genericError });
  }
  request.log.error({ err: error }, 'unexpected error');
  return sendError(reply, 500, { errorMsg: MESSAGES.genericError });
}
