import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { contract, type ApiError, type OperationId } from '@shared/contract';
import { MESSAGES, describeIssue, type ValidationIssue } from '@shared/messages';
import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { versionPlace } from './version-place';

/** An error whose message is meant for the user: the error handler sends it as `{ errorMsg }`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The field the message is about (`3.externalId` for a row of an array body), as validation answers name it. */
    readonly field?: string,
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

/**
 * A `version` inside a part of the body where this write does not read it (a story screen, a grid row's changes):
 * refused by the strict schema, and told where the write reads it (issue 51: a version sent in the wrong place
 * must never be dropped without a word).
 */
function misplacedVersion(request: FastifyRequest, issue: ValidationIssue): ApiError | null {
  const path = issue.path.map(String);
  if (issue.code !== 'unrecognized_keys' || !issue.keys?.includes('version') || path.length === 0) return null;
  const operationId = (request.routeOptions.config as { operationId?: OperationId }).operationId;
  const body = operationId ? contract[operationId]?.body : undefined;
  const place = body ? versionPlace(body, path) : null;
  return place ? { errorMsg: CONFLICT_MESSAGES.versionMisplaced(place), field: [...path, 'version'].join('.') } : null;
}

/** The one error handler: user-meant errors as they are, validation in French, anything else hidden. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    reply.headers(error.headers);
    const conflict = 'conflict' in error ? (error.conflict as ApiError['conflict']) : undefined;
    return sendError(reply, error.statusCode, {
      errorMsg: error.message,
      ...(error.field ? { field: error.field } : {}),
      ...(conflict ? { conflict } : {}),
    });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    // The first issue is the one the user sees, named as the form labels its field ('Nom : 200 caractères au plus').
    const part = error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'body');
    const issue = zodIssueOf(error.validation[0]);
    const misplaced = part === 'body' ? misplacedVersion(request, issue) : null;
    if (misplaced) return sendError(reply, 400, misplaced);
    const { field, errorMsg } = describeIssue(issue, part);
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
  if (isLostDatabaseConnection(error)) {
    // A pooled connection the database ended (restart, failover, an administrator) before the pool heard of it:
    // nothing ran; the next try gets a fresh connection, so say "try again" as a 503 the clients retry on.
    request.log.warn({ err: loggableError(error) }, 'database connection lost during a request; answered 503');
    reply.header('retry-after', '1');
    return sendError(reply, 503, { errorMsg: MESSAGES.databaseUnavailable });
  }
  request.log.error({ err: loggableError(error) }, 'unexpected error');
  return sendError(reply, 500, { errorMsg: MESSAGES.genericError });
}

/** PostgreSQL's "connection ended" codes (class 57P admin shutdown, class 08 connection exceptions). */
const LOST_CONNECTION_CODES = /^(57P0[123]|08\d{3})$/;

/** Whether the error, or one it wraps (drizzle's DrizzleQueryError), is a database connection that went away. */
export function isLostDatabaseConnection(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const { code, cause } = error as Error & { code?: unknown };
  if (typeof code === 'string' && (LOST_CONNECTION_CODES.test(code) || code === 'ECONNRESET' || code === 'ECONNREFUSED')) return true;
  if (/^Connection terminated( unexpectedly)?$|^Client has encountered a connection error/.test(error.message)) return true;
  return isLostDatabaseConnection(cause, depth + 1);
}

/**
 * What the log may keep of an error: never the parameters of a failed query (a password hash, a token hash, an
 * e-mail). drizzle's DrizzleQueryError carries them in `params` and in its message; a driver error may quote a
 * value in `detail` or `where`. Anything else is logged as it is.
 */
export function loggableError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 5) return error;
  const { query, params, code, cause } = error as Error & { query?: unknown; params?: unknown; code?: unknown };
  if (typeof query === 'string' && Array.isArray(params)) {
    return {
      type: error.name,
      message: 'Failed query',
      query,
      paramCount: params.length,
      stack: stackOnly(error),
      cause: loggableError(cause, depth + 1),
    };
  }
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
    // A PostgreSQL error (node-postgres or PGlite): its code and where, not the values it may quote.
    const pgError = error as Error & { constraint?: string; table?: string; column?: string; routine?: string };
    return {
      type: error.name,
      message: error.message,
      code,
      constraint: pgError.constraint,
      table: pgError.table,
      column: pgError.column,
      routine: pgError.routine,
    };
  }
  return error;
}

/** The stack without its first line, which repeats the message (and, for a failed query, its parameters). */
function stackOnly(error: Error): string | undefined {
  return error.stack
    ?.split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
}

/** Requests Fastify refuses before any route (undecodable URL, path parameter too long): `{ errorMsg }` too. */
export function handleFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, 414, { errorMsg: MESSAGES.uriTooLong });
  return sendError(reply, 400, { errorMsg: MESSAGES.badUrl });
}

/**
 * Requests Node's HTTP parser refuses (headers too large, malformed header, timeout): answered on the socket,
 * as Fastify's default does, but with `{ errorMsg }` like every other error answer.
 */
export function handleClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, errorMsg] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, MESSAGES.headersTooLarge]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, MESSAGES.requestTimeout]
        : [400, MESSAGES.badRequest];
  const body = JSON.stringify({ errorMsg } satisfies ApiError);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
