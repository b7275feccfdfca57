/**
 * The front door: the public Node server answers, in its own `request` event and before the
 * request enters Effect, whatever admission answers without executing anything: a 304, a
 * representation the response cache keeps, a preflight, a refusal (request target, size, quota),
 * and the lookups of the direct lane (`execution/directLane.ts`: a record, its pedigree, its
 * progeny, the unfiltered list page). On a public API those are most requests (CDN and browser revalidations, hot URIs), and this way
 * they cost about what a bare `node:http` answer costs instead of a fiber, a request wrapper and
 * the router each. The answer is the one the pipeline would write (`admission/answer.ts`).
 *
 * Every other request is handed to the Effect application with the admission decided here, which
 * the pipeline picks up (`handOver`, `admittedAt`): the quota is charged once, the ETag computed once.
 * Requests with a body go straight to the application (it drains or refuses bodies).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Answer } from "../admission/answer.ts"
import { type Exchange, type Gatekeeper, handOver } from "../admission/Gatekeeper.ts"
import { type DirectLane, isLaneRoute } from "../execution/directLane.ts"
import type { Registry } from "../telemetry.ts"
import { makeTurns, type Turns } from "./turns.ts"

/**
 * The lane's share of each turn of the event loop (`turns.ts`): a few lookups, so that a probe
 * read in the same turn waits about a millisecond for them, not 50 lookups' time.
 */
export const LANE_BUDGET_MS = 1

/**
 * `true` when the request is answered, or will be by the front door or by `handOn` (which gives
 * it to the application); `false` when the application must answer it.
 */
export type FrontDoor = (request: IncomingMessage, response: ServerResponse, handOn: () => void) => boolean

/**
 * `lane`: the lookups answered here too (`execution/directLane.ts`), in the lane's share of each
 * turn (`turns`); without it, they go to the application.
 */
export const makeFrontDoor = (
  gatekeeper: Gatekeeper,
  registry: Registry,
  lane?: DirectLane,
  turns: Turns = makeTurns(LANE_BUDGET_MS)
): FrontDoor => {
  const write = (exchange: Exchange, answer: Answer, response: ServerResponse): void => {
    response.writeHead(answer.status, answer.headers)
    response.end(exchange.method === "HEAD" ? undefined : answer.body)
    registry.record(exchange.label, answer.status, (performance.now() - exchange.started) / 1000)
  }

  return (request, response, handOn) => {
    if (!gatekeeper.frontDoorOpen || request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined) {
      return false
    }
    const exchange = gatekeeper.admit(request.method ?? "GET", request.url ?? "/", request.headers, request.socket.remoteAddress)
    const answer = gatekeeper.answer(exchange)
    if (answer !== undefined) {
      write(exchange, answer, response)
      return true
    }
    if (exchange.verdict !== "route" || lane === undefined || !isLaneRoute(exchange.route)) {
      handOver(request, exchange)
      return false
    }
    turns.run(() => {
      // The client left while the lookup waited for its turn.
      if (response.destroyed) return
      const own = lane(exchange.method, exchange.route, exchange.url)
      if (own !== undefined) {
        write(exchange, gatekeeper.executed(exchange, own), response)
        return
      }
      handOver(request, exchange)
      handOn()
    })
    return true
  }
}
