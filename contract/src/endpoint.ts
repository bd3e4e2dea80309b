import { type Static, type TSchema, Type } from '@sinclair/typebox';

/**
 * Who may call an endpoint: anyone (`none`), a signed-in user (`user`), a signed-in
 * provider operator, group 1 (`operator`: anyone else signed in gets 403), a
 * collector key (`collector`), a LoRaWAN network-server connection key (`lns`: docs/lorawan.md),
 * or an occupant session (`occupant`: docs/occupant-access.md).
 */
export type Auth = 'none' | 'user' | 'operator' | 'collector' | 'lns' | 'occupant';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

const ErrorParams = Type.Record(Type.String(), Type.String(), {
  description: "Values of the message's placeholders",
});

/**
 * The error body every non-2xx answer carries: a stable `code` (errors.ts ERROR_MESSAGES), its
 * `params`, and the English `message`; `errors` lists the fields at fault on a 400, each with its own code.
 */
export const ErrorBody = Type.Object({
  code: Type.String({ description: 'Stable error code; the client shows its translation' }),
  params: Type.Optional(ErrorParams),
  message: Type.String({ description: 'The English text, for clients without a translation' }),
  errors: Type.Optional(
    Type.Array(
      Type.Object({
        field: Type.String(),
        code: Type.String(),
        params: Type.Optional(ErrorParams),
        message: Type.String(),
      }),
    ),
  ),
});
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * One API endpoint, declared once: the server wires it into Fastify (validation,
 * serialisation, OpenAPI) and the web client calls it through a typed helper.
 */
export interface Endpoint {
  method: Method;
  /** Path under /api, Fastify style (`/users/:id`). */
  path: string;
  summary: string;
  tags: readonly string[];
  auth: Auth;
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /** Success body; `status` defaults to 200. */
  response: TSchema;
  status?: 200 | 201 | 204;
  /** Content types of the request body when it is not (only) JSON; the body then arrives as text. */
  consumes?: readonly string[];
  /** Content type of the success body when it is not JSON (a file download). */
  produces?: string;
  /** Largest request body in bytes; default DEFAULT_BODY_BYTES (input.ts). Only bulk uploads raise it. */
  maxBodyBytes?: number;
  /**
   * A heavy read that a streaming standby may answer when one is configured (DATABASE_READ_URL;
   * docs/scaling.md). Default false: the primary answers. Only for reads (GET) that may lag
   * the primary by moments; a user's reads still go to the primary until the standby has
   * their last change.
   */
  standbyMayAnswer?: boolean;
}

/** Keeps the literal types of an endpoint declaration. */
export const defineEndpoint = <const E extends Endpoint>(e: E): E => e;

type StaticOr<S, D> = S extends TSchema ? Static<S> : D;
export type ParamsOf<E extends Endpoint> = StaticOr<E['params'], undefined>;
export type QueryOf<E extends Endpoint> = StaticOr<E['querystring'], undefined>;
export type BodyOf<E extends Endpoint> = StaticOr<E['body'], undefined>;
export type ResponseOf<E extends Endpoint> = Static<E['response']>;

/** The paging envelope (docs/domain.md §11): Data plus Total, PerPage, CurrentPage, LastPage, From, To. */
export const Paged = <T extends TSchema>(item: T) =>
  Type.Object({
    Data: Type.Array(item),
    Total: Type.Integer({ minimum: 0 }),
    PerPage: Type.Integer({ minimum: 1 }),
    CurrentPage: Type.Integer({ minimum: 1 }),
    LastPage: Type.Integer({ minimum: 1 }),
    /** 1-based index of the first row on the page, 0 when the page is empty. */
    From: Type.Integer({ minimum: 0 }),
    To: Type.Integer({ minimum: 0 }),
  });

/** Fills a path template (`/users/:id`) with values. */
export function fillPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
