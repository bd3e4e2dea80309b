/**
 * A response body that is already JSON text (written by SQL), as a string or
 * UTF-8 bytes: `defineRoute` sends it as it is instead of serialising an
 * object. The endpoint's response schema still documents it (OpenAPI); the
 * service's tests check the text against that schema.
 */
export class JsonText<T> {
  /** Type only: what the text encodes. */
  declare readonly encodes: T;
  constructor(readonly json: string | Buffer) {}
}
