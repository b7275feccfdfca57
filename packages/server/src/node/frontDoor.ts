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
 *
 * A throw anywhere here (admission, a byte writer of the lane, shaping) is a defect: logged and
 * answered as the pipeline answers one, a 500 problem on a connection that stays usable; never
 * left to Node's `uncaughtException` (docs/decisions.md).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { type Addressee, type Answer, ownOf, shapeAnswer } from "../admission/answer.ts"
import { negotiateUncached } from "../admission/coding.ts"
import { type Exchange, type Gatekeeper, handOver, isRehearsal } from "../admission/Gatekeeper.ts"
import { type DirectLane, isLaneRoute } from "../execution/directLane.ts"
import { type ExportLane, isExportRoute, isExportTarget, type Served } from "../export/exportLane.ts"
import { internalError } from "../problems.ts"
import type { Registry } from "../telemetry.ts"
import { type DefectReport, reportDefect } from "./defects.ts"
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

/** The defect's problem, as the pipeline's router answers it. */
const internal = ownOf(internalError)!

/** Whom a defect's answer is shaped for when admission itself threw: no route, no validator, identity. */
const UNADMITTED: Addressee = { route: undefined, vary: "Accept-Encoding", negotiated: negotiateUncached(undefined), etag: undefined }

/**
 * `lane`: the lookups answered here too (`execution/directLane.ts`), in the lane's share of each
 * turn (`turns`); without it, they go to the application. `onDefect`: how a throw is logged.
 * `exportLane`: the exports streamed from here (`export/exportLane.ts`), under debug logging too
 * (the only requests the door takes then: an export's limit, compression and back-pressure are
 * the lane's); `onServed`: called for each answer the door sends (the debug line).
 */
export const makeFrontDoor = (
  gatekeeper: Gatekeeper,
  registry: Registry,
  lane?: DirectLane,
  turns?: Turns,
  onDefect: DefectReport = reportDefect,
  exportLane?: ExportLane,
  onServed?: Served
): FrontDoor => {
  const laneTurns = turns ?? makeTurns(LANE_BUDGET_MS, setImmediate, () => performance.now(), onDefect)

  const write = (exchange: Exchange, answer: Answer, response: ServerResponse): void => {
    response.writeHead(answer.status, answer.headers)
    response.end(exchange.method === "HEAD" ? undefined : answer.body)
    if (exchange.rehearsal) return
    registry.record(exchange.label, answer.status, (performance.now() - exchange.started) / 1000)
    onServed?.(exchange, answer.status)
  }

  /**
   * A throw while answering: logged, then the 500 problem, shaped for the exchange when admission
   * took it. Once the head is out, no answer can follow on this connection: it is destroyed.
   */
  const answerDefect = (defect: unknown, exchange: Exchange | undefined, response: ServerResponse): void => {
    onDefect(defect)
    if (response.destroyed) return
    if (response.headersSent) {
      response.destroy()
      return
    }
    try {
      if (exchange !== undefined) {
        write(exchange, gatekeeper.shaped(exchange, internal), response)
        return
      }
      const answer = shapeAnswer(UNADMITTED, undefined, internal.status, internal.headers, internal.body)
      response.writeHead(answer.status, answer.headers)
      response.end(answer.body)
    } catch (again) {
      onDefect(again)
      response.destroy()
    }
  }

  const runLane = (lane: DirectLane, exchange: Exchange, request: IncomingMessage, response: ServerResponse, handOn: () => void): void => {
    // The client left while the lookup waited for its turn.
    if (response.destroyed) return
    try {
      const own = lane(exchange.method, exchange.route, exchange.url)
      if (own !== undefined) {
        write(exchange, gatekeeper.executed(exchange, own), response)
        return
      }
    } catch (defect) {
      answerDefect(defect, exchange, response)
      return
    }
    handOver(request, exchange)
    handOn()
  }

  return (request, response, handOn) => {
    if (request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined) return false
    if (!gatekeeper.frontDoorOpen && (exportLane === undefined || !isExportTarget(request.url))) return false
    let exchange: Exchange | undefined
    try {
      exchange = gatekeeper.admit(request.method ?? "GET", request.url ?? "/", request.headers, request.socket.remoteAddress, isRehearsal(request))
      const answer = gatekeeper.answer(exchange)
      if (answer !== undefined) {
        write(exchange, answer, response)
        return true
      }
    } catch (defect) {
      answerDefect(defect, exchange, response)
      return true
    }
    if (exchange.verdict === "route" && isExportRoute(exchange.route) && exportLane !== undefined) {
      try {
        exportLane(exchange, request, response, handOn)
      } catch (defect) {
        answerDefect(defect, exchange, response)
      }
      return true
    }
    if (exchange.verdict !== "route" || lane === undefined || !isLaneRoute(exchange.route)) {
      handOver(request, exchange)
      return false
    }
    const admitted = exchange
    laneTurns.run(() => runLane(lane, admitted, request, response, handOn))
    return true
  }
}
