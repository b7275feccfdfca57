/**
 * The bench's baseline (design 5): a bare `node:http` server answering a fixed JSON body, by
 * default about 2 KiB (the size of a default list page), or about N bytes for `/?bytes=N`, so that
 * a route with a large body is compared with a bare answer of the same size. Run as a child process
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

createServer((request, response) => {
  const rows = rowsFor(request.url)
  let answer = answers.get(rows)
  if (answer === undefined) {
    answer = answerOf(rows)
    answers.set(rows, answer)
  }
  response.writeHead(200, answer.headers)
  response.end(answer.body)
}).listen(Number(process.env["PORT"]), process.env["HOST"] ?? "127.0.0.1")
