/**
 * The bench's baseline (design 5): a bare `node:http` server answering a fixed JSON body, by
 * default about 2 KiB (the size of a default list page), or about N bytes for `/?bytes=N`, so that
 * a route with a large body is compared with a bare answer of the same size, or a 304 with `ETag`,
 * `Cache-Control` and `Vary` for `/?status=304`. Run as a child process
 * of the bench on `PORT` and `HOST`; it does nothing else, so what separates the API from it is the
 * cost of the API itself.
 */
import { createServer } from "node:http"

const row = (i: number) => ({
  id: `BenchBaselineRow${String(i).padStart(5, "0")}w`,
  nom: `CHEVAL DE REFERENCE ${i}`,
  race: "Trotteur Francais",
  sexe: "Femelle",
  annee_naissance: 2000 + i,
  robe: "Bai"
})

const DEFAULT_ROWS = 16
const ROW_BYTES = JSON.stringify(row(0)).length + 1

interface Answer {
  readonly body: Buffer
  readonly headers: Readonly<Record<string, string>>
}

const answerOf = (rows: number): Answer => {
  const body = Buffer.from(JSON.stringify({ donnees: Array.from({ length: rows }, (_, i) => row(i)) }))
  return { body, headers: { "content-type": "application/json; charset=utf-8", "content-length": String(body.length) } }
}

/** Bodies by row count, made on first use (the bench asks for a handful of sizes). */
const answers = new Map<number, Answer>()

const rowsFor = (url: string | undefined): number => {
  const match = /[?&]bytes=(\d+)/.exec(url ?? "")
  return match === null ? DEFAULT_ROWS : Math.max(1, Math.min(100_000, Math.round(Number(match[1]) / ROW_BYTES)))
}

/** A revalidation's answer with what a 304 of the API carries for caches (RFC 9110 15.4.5). */
const NOT_MODIFIED: Readonly<Record<string, string>> = {
  etag: "\"0123456789abcdef\"",
  "cache-control": "public, max-age=3600, stale-while-revalidate=86400",
  vary: "Accept-Encoding"
}

createServer((request, response) => {
  if (request.url?.includes("status=304") === true) {
    response.writeHead(304, NOT_MODIFIED)
    response.end()
    return
  }
  const rows = rowsFor(request.url)
  let answer = answers.get(rows)
  if (answer === undefined) {
    answer = answerOf(rows)
    answers.set(rows, answer)
  }
  response.writeHead(200, answer.headers)
  response.end(answer.body)
}).listen(Number(process.env["PORT"]), process.env["HOST"] ?? "127.0.0.1")
