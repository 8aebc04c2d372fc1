import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError } from '@shared/contract';
import { MESSAGES, describeIssue, type ValidationIssue } from '@shared/messages';

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

/**
 * fastify-type-provider-zod 7 turns each zod issue into `{ keyword: code, instancePath: '/a/0', message, params:
 * the issue's other fields }`: put the issue back together for the French formatter.
 */
function zodIssueOf(validation: { keyword: string; instancePath: string; message?: string; params: unknown }): ValidationIssue {
  return {
    ...(validation.params as Partial<ValidationIssue>),
    code: validation.keyword,
    path: validation.instancePath.split('/').filter(Boolean),
    message: validation.message,
  };
}

/** The one error handler: user-meant errors as they are, validation in French, anything else hidden. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    reply.headers(error.headers);
    return sendError(reply, error.statusCode, { errorMsg: error.message });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    // The first issue is the one the user sees, named as the form labels its field ('Nom : 200 caractères au plus').
    const part = error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'body');
    const { field, errorMsg } = describeIssue(zodIssueOf(error.validation[0]), part);
    return sendError(reply, 400, { errorMsg, field });
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
