/**
 * The front door: the public Node server answers, in its own `request` event and before the
 * request enters Effect, what admission says needs nothing executed: a 304, or a representation
 * the response cache keeps. On a public API those are most requests (CDN and browser
 * revalidations, hot URIs), and this way they cost about what a bare `node:http` answer costs
 * instead of a fiber, a request wrapper and the router each.
 *
 * Every other request is handed to the Effect application with the admission decided here, which
 * the pipeline picks up (`admittedAt`): the quota is charged once, the ETag computed once.
 * Requests with a body go straight to the application (it drains or refuses bodies).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Exchange, Gatekeeper } from "../admission/Gatekeeper.ts"
import { rateLimitValue } from "../admission/quota.ts"
import type { Registry } from "../telemetry.ts"

const ADMITTED = Symbol("equides/admitted")

type Admitted = { [ADMITTED]?: Exchange | undefined }

/** The admission the front door took for the request whose Node message is `source`, if it ran. */
export const admittedAt = (source: object): Exchange | undefined => (source as Admitted)[ADMITTED]

/** `true` when the request has been answered; `false` when the application must answer it. */
export type FrontDoor = (request: IncomingMessage, response: ServerResponse) => boolean

export const makeFrontDoor = (gatekeeper: Gatekeeper, registry: Registry): FrontDoor => (request, response) => {
  if (!gatekeeper.frontDoorOpen || request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined) {
    return false
  }
  const exchange = gatekeeper.admit(request.method ?? "GET", request.url ?? "/", request.headers, request.socket.remoteAddress)
  const quota = exchange.quota
  let status: number
  if (exchange.verdict === "notModified") {
    const headers = gatekeeper.notModifiedHeaders(exchange)
    if (quota !== undefined) headers["ratelimit"] = rateLimitValue(quota)
    response.writeHead(304, headers)
    response.end()
    status = 304
  } else if (exchange.verdict === "cached") {
    const kept = exchange.kept
    response.writeHead(kept.status, quota === undefined ? kept.headers : { ...kept.headers, ratelimit: rateLimitValue(quota) })
    if (exchange.method === "HEAD") response.end()
    else response.end(kept.body)
    status = kept.status
  } else {
    ;(request as Admitted)[ADMITTED] = exchange
    return false
  }
  registry.record(exchange.label, status, (performance.now() - exchange.started) / 1000)
  return true
}
