import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { contract, type Contract, type Operation, type OperationId } from '@shared/contract';
import type { Role } from '@shared/roles';
import { authorize, isServiceToken } from './auth/guard';
import type { ServerContext } from './context';
import { MESSAGES } from '@shared/messages';
import { HttpError } from './errors';
import { IDEMPOTENCY_HEADER, runIdempotently } from './idempotency';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<O> {
  params: O extends Operation<infer P, z.ZodType, z.ZodType, z.ZodType> ? Out<P> : never;
  query: O extends Operation<z.ZodType, infer Q, z.ZodType, z.ZodType> ? Out<Q> : never;
  body: O extends Operation<z.ZodType, z.ZodType, infer B, z.ZodType> ? Out<B> : never;
  /** The signed-in account; null on public operations and for a service token (Operation.serviceToken). */
  account: { id: number; roles: Role[] } | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<Id extends OperationId> = (
  input: HandlerInput<Contract[Id]>,
) => Promise<Contract[Id] extends Operation<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.input<R> : never>;

export type Handlers = { [Id in OperationId]: Handler<Id> };

/**
 * Registers one route per contract operation. The typed map makes a missing handler a compile error, and the
 * role check runs in onRequest, before validation, so a forbidden caller learns nothing about the payload.
 */
export function registerOperations(app: FastifyInstance, context: ServerContext, handlers: Handlers): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const id of Object.keys(contract) as OperationId[]) {
    const operation = contract[id] as Operation;
    const handler = handlers[id] as unknown as (input: HandlerInput<Operation>) => Promise<unknown>;
    typed.route({
      ...operationRoute(operation),
      config: { operationId: id },
      ...(operation.bodyLimit ? { bodyLimit: operation.bodyLimit } : {}),
      // The route-level compiler is typed for the whole schema object; it is called per part, like the app-level one.
      ...(operation.fastBody ? { validatorCompiler: withFastBody(operation.fastBody) as never } : {}),
      onRequest: async (request) => {
        if (operation.serviceToken && isServiceToken(context, operation.serviceToken, request.headers.authorization)) {
          request.account = null;
          return;
        }
        request.account = await authorize(context, operation.access, request.headers.authorization);
      },
      handler: async (request, reply) => {
        const run = async () => {
          const result = await handler({
            params: request.params as never,
            query: request.query as never,
            body: request.body as never,
            account: request.account,
            request,
            reply,
          });
          reply.code(operation.successStatus ?? 200);
          return result;
        };
        // A file answer (a CSV export, a stored medium) is streamed, never stored: a key cannot replay it, so it is refused.
        if ((operation.answersFile || operation.answersMedia) && request.headers[IDEMPOTENCY_HEADER] !== undefined) {
          throw new HttpError(422, MESSAGES.idempotencyKeyOnFile);
        }
        // A write sent again with its Idempotency-Key is answered once (uploads' bodies are streams: not keyed).
        const scope = idempotencyScope(context, operation, request);
        // A GET that creates (operation.sideEffects) is keyed as the create it is.
        return (operation.method === 'GET' && operation.sideEffects !== 'creates') || operation.multipart || !scope
          ? run()
          : runIdempotently(
              context.db,
              request,
              reply,
              { operationId: id, scope, atomic: operation.successStatus === 201 || operation.sideEffects === 'creates' },
              run,
            );
      },
    });
  }
}

/** Whose Idempotency-Key a request's is: a signed-in account's, the app platform's token's, or nobody's (public calls). */
function idempotencyScope(context: ServerContext, operation: Operation, request: FastifyRequest): string | null {
  if (request.account) return `account:${request.account.id}`;
  if (operation.serviceToken && isServiceToken(context, operation.serviceToken, request.headers.authorization)) return 'service';
  return null;
}

/**
 * The route of an operation as Fastify reads it: method, URL and the contract's zod schemas (params, query, body,
 * success answer). The OpenAPI document (src-server/openapi) is generated from the same object.
 */
export function operationRoute(operation: Operation) {
  return {
    method: operation.method,
    url: operation.path,
    schema: {
      ...(operation.params ? { params: operation.params } : {}),
      ...(operation.query ? { querystring: operation.query } : {}),
      ...(operation.body ? { body: operation.body } : {}),
      response: { [operation.successStatus ?? 200]: operation.response } as Record<number, z.ZodType>,
    },
  };
}

/**
 * The answer as JSON text, sent as is: fastify skips its serializer for a string whose content type is JSON, so
 * the response schema's pass (a full zod validation of every field, the largest cost of a list of 400 targets)
 * does not run. Only for answers built field by field from typed columns by functions that copy nothing but the
 * contract's fields (the projects and targets lists); their tests compare the answer with the schema's output.
 */
export function preSerialized<T>(reply: FastifyReply, answer: T): T {
  reply.type('application/json; charset=utf-8');
  return JSON.stringify(answer) as unknown as T;
}

/** The body read by the operation's own reader when it can, by zod otherwise (same answer, zod's wording of errors). */
function withFastBody(fastBody: (body: unknown) => unknown): typeof validatorCompiler {
  return (route) => {
    const validate = validatorCompiler(route);
    if (route.httpPart !== 'body') return validate;
    return (data) => {
      const value = fastBody(data);
      return value === undefined ? validate(data) : { value };
    };
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    account: { id: number; roles: Role[] } | null;
  }
}
