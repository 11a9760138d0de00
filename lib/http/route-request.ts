/**
 * What the REST door and the REST-only operations read of an HTTP request. A Web `Request` is one
 * (the route files' handlers get those from Next); the API router passes a lighter view of the node
 * request (see routeRequestOf), because building a Web Request was a sixth of a gateway poll's cost.
 */
export interface RouteRequest {
  readonly method: string;
  /** Absolute: `http://<host><path and query>`. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  /** Aborts when the client goes away before the answer is complete. */
  readonly signal: AbortSignal;
  /** The body as a stream; null for GET and HEAD. */
  readonly body: ReadableStream<Uint8Array> | null;
}
