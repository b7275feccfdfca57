/**
 * The bench's baseline (design 5): a bare `node:http` server answering every request with one
 * fixed JSON body of about 2 KiB, the size of a default list page. Run as a child process of the
 * bench on `PORT` and `HOST`; it does nothing else, so what separates the API from it is the cost
 * of the API itself.
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
const body = Buffer.from(JSON.stringify({ donnees: Array.from({ length: 16 }, (_, i) => row(i)) }))
const headers = { "content-type": "application/json; charset=utf-8", "content-length": String(body.length) }

createServer((_request, response) => {
  response.writeHead(200, headers)
  response.end(body)
}).listen(Number(process.env["PORT"]), process.env["HOST"] ?? "127.0.0.1")
