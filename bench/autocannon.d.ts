/**
 * The part of autocannon's programmatic API the bench uses (autocannon ships no types). See
 * node_modules/autocannon/README.md, "API".
 */
declare module "autocannon" {
  import type { EventEmitter } from "node:events"

  /** One request of a connection. */
  export interface Request {
    readonly method?: string
    readonly path?: string
  }

  /** One connection. */
  export interface Client {
    /** Replaces the requests this connection cycles through (and builds them now). */
    setRequests(requests: ReadonlyArray<Request>): void
  }

  interface Options {
    readonly url: string
    readonly connections?: number
    /** Seconds; ignored when `amount` is set. */
    readonly duration?: number
    /** Requests to send in all, spread over the connections; the run ends when all are answered. */
    readonly amount?: number
    readonly headers?: Readonly<Record<string, string>>
    /** Called once per connection, when it is created. */
    readonly setupClient?: (client: Client) => void
  }

  interface Result {
    /** Seconds actually elapsed. */
    readonly duration: number
    /** Socket errors, timeouts included. */
    readonly errors: number
    readonly timeouts: number
    /** Responses received, per status code. */
    readonly statusCodeStats: Readonly<Record<string, { readonly count: number }>>
    readonly requests: { readonly total: number }
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    /** `responseTime` is in milliseconds, with sub-millisecond precision. */
    on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): this
    stop(): void
  }

  function autocannon(options: Options): Instance
  export default autocannon
}
