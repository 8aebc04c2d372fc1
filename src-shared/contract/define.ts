import type { z } from 'zod';
import type { Access } from '../roles';
import type { FieldRule } from './field-access';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * One API operation, declared once and consumed three times: the server registers its route from it, the
 * desktop main process calls it through the API client, and the IPC layer validates renderer payloads with it.
 */
export interface Operation<
  Params extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
  Response extends z.ZodType = z.ZodType,
> {
  readonly method: HttpMethod;
  /** Fastify-style path, `:name` for a path parameter. */
  readonly path: string;
  readonly summary: string;
  readonly access: Access;
  /** Fields of the item written that only some of the callers `access` lets in may change (see field-access.ts). */
  readonly fieldAccess?: readonly FieldRule[];
  readonly params?: Params;
  readonly query?: Query;
  readonly body?: Body;
  /** Schema of the 2xx answer. */
  readonly response: Response;
  /** HTTP status of success; 200 unless stated. */
  readonly successStatus?: number;
  /**
   * A GET that writes. `creates`: each call makes a record (the spec's `GET /project/estimate/:id` creates a
   * project); main's client never sends it again blindly, as it does other GETs: it sends an Idempotency-Key with
   * it, as with a create, and the server answers that key once (src-server/idempotency.ts). `idempotent`: a
   * get-or-create whose second call writes nothing (`GET /library/:label/:id` makes the empty library); retried as
   * a read. tests/server/contract-side-effects.test.ts checks that no other GET writes.
   */
  readonly sideEffects?: 'creates' | 'idempotent';
  /**
   * A machine caller also accepted besides `access`: the bearer may be the named service token of the server's
   * configuration (`ingest`: BACKOFFICE_INGEST_TOKEN, for the app platform's population feed). Staff callers
   * still go through `access`, so the role rules of spec §6 are untouched.
   */
  readonly serviceToken?: 'ingest';
  /** The 2xx answer is a whole file streamed by the server (text/csv), not JSON: main saves it as it comes. */
  readonly answersFile?: 'csv';
  /**
   * The 2xx answer is a stored file as its own bytes (an image, a video, a PDF: the type its bytes say), not JSON:
   * what the OpenAPI document tells outside callers (src-server/openapi).
   */
  readonly answersMedia?: true;
  /** Largest request body in bytes, when the server's default (1 MB) is too small. */
  readonly bodyLimit?: number;
  /**
   * A hand-written reader of a body too large for zod to read quickly (50,000 ingested events): it answers exactly
   * what `body` would, or undefined whenever the body is not plainly valid; `body` then reads it and words the
   * 400 as for every other route.
   */
  readonly fastBody?: (body: unknown) => z.output<Body> | undefined;
  /**
   * A file upload: the request is multipart/form-data (the text `fields`, then one `file`), streamed to storage
   * by the handler, never parsed whole. The desktop upload channel checks fields, size and extension against it.
   */
  readonly multipart?: MultipartSpec;
}

export interface MultipartSpec {
  /** The text fields sent before the file. */
  readonly fields: z.ZodType;
  /** Largest file in bytes. */
  readonly maxFileBytes: number;
  /** Extensions accepted (the native dialog's filter, and the server's first check). */
  readonly formats: readonly string[];
  /** Files one request may carry (file0..n); one unless stated. */
  readonly maxFiles?: number;
}

export function defineOperation<
  Params extends z.ZodType = z.ZodNever,
  Query extends z.ZodType = z.ZodNever,
  Body extends z.ZodType = z.ZodNever,
  Response extends z.ZodType = z.ZodType,
>(operation: Operation<Params, Query, Body, Response>): Operation<Params, Query, Body, Response> {
  return operation;
}

/** Whether the operation needs a bearer token (every one but the public ones, spec §7). */
export function needsToken(operation: Pick<Operation, 'access'>): boolean {
  return operation.access.kind !== 'public';
}

type Maybe<S> = S extends z.ZodNever ? undefined : S extends z.ZodType ? z.input<S> : undefined;

/** What a caller supplies to an operation: path params, query and body, each only if declared. */
export type OperationInput<O> =
  O extends Operation<infer P, infer Q, infer B, z.ZodType> ? { params?: Maybe<P>; query?: Maybe<Q>; body?: Maybe<B> } : never;

export type OperationOutput<O> = O extends Operation<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

/** Builds the concrete URL path of an operation from its path params. */
export function buildPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
