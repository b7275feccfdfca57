/**
 * Answers written outside the router, for requests the application never sees: those Node's
 * parser refuses (no request object exists), `CONNECT`, an `Expect` the server cannot meet, an
 * HTTP/1.1 request without exactly one `Host`. Node's own answers are bare status lines (or a
 * closed connection); these are problems (`#erreur-requete-invalide`) with the headers every
 * response carries, `Cache-Control: no-store` (they describe a message, not a resource) and
 * `Connection: close`. A `HEAD` gets the headers without the body.
 */
import { Refusals } from "@equides/domain"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { ALLOW, COMMON_HEADERS } from "../responseHeaders.ts"

const REASONS: Readonly<Record<number, string>> = {
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  417: "Expectation Failed",
  431: "Request Header Fields Too Large"
}

interface RawProblem {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

const rawProblem = (status: number, detail: string, extra: Record<string, string> = {}): RawProblem => {
  const body = JSON.stringify({ type: "/documentation#erreur-requete-invalide", title: "Requête invalide", status, detail })
  return {
    status,
    body,
    headers: {
      "Content-Type": "application/problem+json",
      "Content-Length": String(Buffer.byteLength(body)),
      "Cache-Control": "no-store",
      ...COMMON_HEADERS,
      Vary: "Accept-Encoding",
      ...extra,
      Connection: "close"
    }
  }
}

/** Writes `problem` on a socket no response object owns, then closes it. */
const writeOnSocket = (socket: Duplex, problem: RawProblem, head: boolean): void => {
  const lines = Object.entries(problem.headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
  socket.end(`HTTP/1.1 ${problem.status} ${REASONS[problem.status]}\r\n${lines}\r\n${head ? "" : problem.body}`)
}

/** Writes `problem` through Node's response (which drops the body of a `HEAD` itself). */
const writeOnResponse = (response: ServerResponse, problem: RawProblem): void => {
  response.shouldKeepAlive = false
  response.writeHead(problem.status, problem.headers)
  response.end(problem.body)
}

/** The method of a request Node could not parse, read from the bytes it was given. */
const startsWithHead = (error: { readonly rawPacket?: unknown }): boolean =>
  Buffer.isBuffer(error.rawPacket) && error.rawPacket.subarray(0, 5).toString("latin1") === "HEAD "

/**
 * Node's `clientError`: a request line and headers over `maxHeaderSize` (16 KiB: a 100 KB path, a
 * huge header) → 431; a request too slow → 408; anything else unparsable → 400.
 */
export const answerClientError = (error: Error & { readonly code?: string; readonly rawPacket?: unknown }, socket: Duplex): void => {
  // As Node does: no answer when the peer is gone or a response has started on this connection.
  const inFlight = (socket as Duplex & { readonly _httpMessage?: { readonly headersSent?: boolean } })._httpMessage
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy()
    return
  }
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400
  const detail = status === 431
    ? "La ligne de requête et les en-têtes dépassent la taille admise (16 Kio en tout)."
    : status === 408
    ? "La requête n'a pas été reçue à temps."
    : "La requête est mal formée."
  writeOnSocket(socket, rawProblem(status, detail), startsWithHead(error))
}

/** Node's `connect`: a tunnel is not a resource of this service. */
export const answerConnect = (request: IncomingMessage, socket: Duplex): void => {
  writeOnSocket(
    socket,
    rawProblem(405, Refusals.methodNotAdmitted("CONNECT"), { Allow: ALLOW }),
    false
  )
  request.resume()
}

/** Node's `checkExpectation`: only `100-continue` is understood (RFC 9110 10.1.1). */
export const answerExpectation = (request: IncomingMessage, response: ServerResponse): void =>
  writeOnResponse(
    response,
    rawProblem(417, `L'attente « ${String(request.headers.expect).slice(0, 100)} » n'est pas prise en charge : seule 100-continue l'est.`)
  )

/**
 * RFC 9112 3.2: an HTTP/1.1 request without `Host`, or with more than one, is answered 400. Node
 * keeps the first of repeated `Host` lines, so they are counted in the raw headers.
 */
export const refusesHost = (request: IncomingMessage): boolean => {
  if (request.httpVersionMajor !== 1 || request.httpVersionMinor === 0) return false
  const raw = request.rawHeaders
  let hosts = 0
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    if (name.length === 4 && name.toLowerCase() === "host") hosts++
  }
  return hosts !== 1
}

export const answerBadHost = (response: ServerResponse): void =>
  writeOnResponse(response, rawProblem(400, "Une requête HTTP/1.1 porte exactement un en-tête Host (RFC 9112, 3.2)."))
