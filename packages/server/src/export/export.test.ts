/**
 * `GET /v1/export/equides` through the real Node server and front door: every record of the
 * selection (counts equal the list's `total`), NDJSON lines equal to `GET /v1/equides/{id}`, CSV
 * read back by csv-parse equal to the records, the file name, refusals before any byte, ETag and
 * 304, compression, the export limit (503) and a client leaving mid-stream.
 */
import { assert, describe, layer } from "@effect/vitest"
import { fromRecords, type SourceRecord } from "@equides/domain"
import { idN } from "@equides/domain/testing"
import { parse } from "csv-parse/sync"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as References from "effect/References"
import { request as httpRequest } from "node:http"
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib"
import { Telemetry } from "../telemetry.ts"
import { call, raw, serverUrl, testServer } from "../testing/server.ts"
import { eventually } from "../testing/time.ts"

const RACES = ["Selle Francais", "Pur Sang", "Trotteur Francais"]
const SEXES = ["Male", "Femelle", "Hongre"]

/** Enough records for a body of many chunks, names with the characters CSV must quote. */
const RECORDS: ReadonlyArray<SourceRecord> = Array.from({ length: 2500 }, (_, i): SourceRecord => ({
  id: idN(i + 1),
  nom: i % 7 === 0 ? `NOM "${i}", ÉTÉ\nLIGNE` : `CHEVAL ${i}`,
  race: RACES[i % 3],
  sexe: SEXES[i % 3],
  ...(i % 11 === 0 ? {} : { annee_naissance: 1980 + (i % 40) }),
  ...(i % 5 === 0 ? {} : { robe: "Bai" }),
  ...(i > 10 && i % 2 === 0 ? { pere: { id: idN((i % 10) + 1), nom: "PERE", race: "SF" } } : {}),
  ...(i % 4 === 0 ? { mere: { nom: "MERE ABSENTE", race: "PS" } } : {}),
  ...(i % 6 === 0 ? { performances: [{ discipline: "CSO", texte: "ISO 130, \"bon\"", indices: [{ code: "ISO", valeur: "+130", annee: 2020 }] }] } : {})
}))

const EXPORT = "/v1/export/equides"
const FILTERS = ["", "race=Selle%20Francais", "sexe=Femelle&annee_min=2000", "race=Pur%20Sang,Trotteur%20Francais&robe=Bai", "annee_naissance=1985"]

const lines = (text: string): Array<string> => text.split("\n").slice(0, -1)

/** The CSV columns' values of a record as `GET /v1/equides/{id}` answers it. */
const csvOf = (record: any): Record<string, string> => {
  const cell = (value: unknown) => (value === undefined ? "" : String(value))
  const out: Record<string, string> = {}
  for (const key of ["id", "nom", "slug", "url", "race", "sexe", "nombre_de_descendants", "annee_naissance", "robe", "filiation_texte"]) out[key] = cell(record[key])
  for (const link of ["pere", "mere", "pere_de_mere"]) {
    for (const field of ["id", "nom", "race", "fiche_disponible"]) out[`${link}_${field}`] = cell(record[link]?.[field])
  }
  out.performances = record.performances === undefined ? "" : JSON.stringify(record.performances)
  return out
}

/** A client that reads the head and a little of an export's body, then waits: the export holds its slot until it leaves. */
const holdingExport = Effect.flatMap(serverUrl, (base) =>
  Effect.callback<{ leave: () => void }>((resume) => {
    const url = new URL(base)
    const request = httpRequest({ host: url.hostname, port: url.port, path: EXPORT, agent: false }, (response) => {
      response.once("data", () => {
        response.pause()
        resume(Effect.succeed({ leave: () => request.destroy() }))
      })
    })
    request.end()
  }))

describe("export", () => {
  layer(testServer(fromRecords(RECORDS), { settings: { exportConcurrency: 1 } }))("streams", (it) => {
    it.effect("NDJSON: the list's total, in file order, each line the record's own body", () =>
      Effect.gen(function*() {
        for (const filter of FILTERS) {
          const list = yield* call(`/v1/equides?limite=1${filter === "" ? "" : `&${filter}`}`)
          const reply = yield* call(`${EXPORT}?format=ndjson${filter === "" ? "" : `&${filter}`}`)
          assert.strictEqual(reply.status, 200, filter)
          assert.strictEqual(reply.headers["content-type"], "application/x-ndjson; charset=utf-8")
          const got = lines(reply.text)
          assert.strictEqual(got.length, list.json.pagination.total, filter)
          const ids = got.map((line) => JSON.parse(line).id as string)
          assert.deepStrictEqual(ids, [...ids].sort((a, b) => RECORDS.findIndex((r) => r.id === a) - RECORDS.findIndex((r) => r.id === b)))
          for (const line of got.filter((_, i) => i % 97 === 0)) {
            const record = yield* call(`/v1/equides/${JSON.parse(line).id}`)
            assert.strictEqual(line, record.text)
          }
        }
      }))

    it.effect("CSV: RFC 4180 with CRLF, the header, each row the record's values", () =>
      Effect.gen(function*() {
        const reply = yield* raw(`${EXPORT}?format=csv&race=Selle%20Francais`)
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], "text/csv; charset=utf-8; header=present")
        const text = reply.body.toString("utf8")
        assert.isTrue(text.startsWith(
          "id,nom,slug,url,race,sexe,nombre_de_descendants,annee_naissance,robe,filiation_texte," +
            "pere_id,pere_nom,pere_race,pere_fiche_disponible,mere_id,mere_nom,mere_race,mere_fiche_disponible," +
            "pere_de_mere_id,pere_de_mere_nom,pere_de_mere_race,pere_de_mere_fiche_disponible,performances\r\n"
        ))
        assert.isTrue(text.endsWith("\r\n"))
        const rows: Array<Record<string, string>> = parse(text, { columns: true, record_delimiter: "\r\n" })
        const ndjson = lines((yield* call(`${EXPORT}?race=Selle%20Francais`)).text).map((line) => JSON.parse(line))
        assert.strictEqual(rows.length, ndjson.length)
        assert.deepStrictEqual(rows, ndjson.map(csvOf))
        assert.isTrue(rows.some((row) => row.mere_fiche_disponible === "false"))
        assert.isTrue(rows.some((row) => row.pere_fiche_disponible === "true"))
      }))

    it.effect("the file is named for the data's fingerprint; ETag, 304, HEAD and gzip", () =>
      Effect.gen(function*() {
        const first = yield* raw(`${EXPORT}?format=csv`)
        assert.match(first.headers["content-disposition"]!, /^attachment; filename="equides-[0-9a-f]{12}\.csv"$/)
        const etag = first.headers["etag"]!
        assert.isDefined(etag)
        const again = yield* raw(`${EXPORT}?format=csv`, { headers: { "if-none-match": etag } })
        assert.strictEqual(again.status, 304)
        assert.strictEqual(again.body.length, 0)
        const head = yield* raw(`${EXPORT}?format=csv`, { method: "HEAD" })
        assert.strictEqual(head.status, 200)
        assert.strictEqual(head.headers["etag"], etag)
        assert.strictEqual(head.body.length, 0)
        const zipped = yield* raw(`${EXPORT}?format=csv`, { headers: { "accept-encoding": "gzip" } })
        assert.strictEqual(zipped.headers["content-encoding"], "gzip")
        assert.notStrictEqual(zipped.headers["etag"], etag)
        assert.strictEqual(gunzipSync(zipped.body).toString("utf8"), first.body.toString("utf8"))
      }))

    it.effect("the explorer's list links the export of its filters, without its order and paging", () =>
      Effect.gen(function*() {
        const page = yield* call("/explorer/equides?race=Selle%20Francais&sexe=Male&tri=-annee&limite=50")
        const hrefs = [...page.text.matchAll(/<a href="(\/v1\/export\/equides[^"]*)" download>([^<]*)<\/a>/g)].map((m) => [m[1].replaceAll("&amp;", "&"), m[2]])
        assert.deepStrictEqual(hrefs.map(([, label]) => label), ["Télécharger (CSV)", "(NDJSON)"])
        assert.deepStrictEqual(hrefs.map(([href]) => href), [
          "/v1/export/equides?format=csv&race=Selle+Francais&sexe=Male",
          "/v1/export/equides?format=ndjson&race=Selle+Francais&sexe=Male"
        ])
        const list = yield* call("/v1/equides?limite=1&race=Selle%20Francais&sexe=Male")
        assert.strictEqual(lines((yield* call(hrefs[1][0])).text).length, list.json.pagination.total)
      }))

    it.effect("/documentation explains the formats, the pacing and how to read the files", () =>
      Effect.gen(function*() {
        const page = (yield* call("/documentation")).text
        const section = page.slice(page.indexOf('<h2 id="exports">'), page.indexOf('<h2 id="erreurs">'))
        for (const text of ["application/x-ndjson", "RFC 4180", "CRLF", "16 Kio", "attend la recharge", "equides.parquet", "Range", "-- DuckDB", "read_parquet", "# pandas", "# R"]) {
          assert.include(section, text)
        }
      }))

    it.effect("refusals are 400 problems before any byte", () =>
      Effect.gen(function*() {
        for (const query of ["limite=10", "format=xml", "race=Licorne", "annee_min=abc", "offset=5"]) {
          const reply = yield* call(`${EXPORT}?${query}`)
          assert.strictEqual(reply.status, 400, query)
          assert.strictEqual(reply.headers["content-type"], "application/problem+json", query)
        }
      }))

    it.effect("beyond EXPORT_CONCURRENCY a 503 with Retry-After; a client leaving mid-stream frees its slot", () =>
      Effect.gen(function*() {
        const registry = yield* Telemetry
        const { leave } = yield* holdingExport
        const refused = yield* call(EXPORT)
        assert.strictEqual(refused.status, 503)
        assert.strictEqual(refused.headers["retry-after"], "10")
        assert.strictEqual(refused.headers["cache-control"], "no-store")
        assert.include(registry.render(), "equides_exports_running 1")
        leave()
        // Freed as soon as the server sees the socket close.
        yield* eventually(() => registry.render().includes("equides_exports_running 0"))
        const after = yield* call(`${EXPORT}?race=Pur%20Sang`)
        assert.strictEqual(after.status, 200)
      }))
  })

  layer(testServer(fromRecords(RECORDS), { settings: { rateLimitRate: 400, rateLimitBurst: 40 } }))("with a quota", (it) => {
    it.effect("the stream waits for the refill instead of failing; RateLimit describes the start", () =>
      Effect.gen(function*() {
        const reply = yield* raw(EXPORT)
        assert.strictEqual(reply.status, 200)
        // The state at the start: the export's first unit taken from a full bucket.
        assert.strictEqual(reply.headers["ratelimit"], "\"default\";r=39;t=1")
        // Far more than the burst (40 units), sent whole.
        const units = Math.floor(reply.body.length / 16_384)
        assert.isAbove(units, 40)
        assert.strictEqual(reply.body.toString("utf8").split("\n").length - 1, RECORDS.length)
        // The bucket is spent: the next request finds it nearly empty.
        const after = yield* raw("/v1/meta")
        const remaining = Number(/r=(\d+)/.exec(after.headers["ratelimit"] ?? "")?.[1])
        assert.isBelow(remaining, 40)
      }))
  })

  layer(testServer(fromRecords(RECORDS), { settings: { workers: 1 } }), { timeout: 30_000 })("with query workers", (it) => {
    it.effect("the selection (read as the body is written, not on a worker) gives the list's total; its refusal is the same 400", () =>
      Effect.gen(function*() {
        const reply = yield* call(`${EXPORT}?sexe=Femelle&annee_min=2000`)
        const list = yield* call("/v1/equides?limite=1&sexe=Femelle&annee_min=2000")
        assert.strictEqual(lines(reply.text).length, list.json.pagination.total)
        assert.strictEqual((yield* call(`${EXPORT}?race=Licorne`)).status, 400)
      }))
  })

  const debugLines: Array<string> = []
  const debugging = testServer(fromRecords(RECORDS), { settings: { exportConcurrency: 1 } }).pipe(
    Layer.provide(Layer.mergeAll(
      Logger.layer([Logger.make(({ logLevel, message }) => debugLines.push(`${logLevel} ${String(message)}`))]),
      Layer.succeed(References.MinimumLogLevel, "Debug")
    ))
  )
  layer(debugging)("under debug logging (the front door closed to all but the exports)", (it) => {
    it.effect("an export keeps its compression and its limit; each request has its debug line", () =>
      Effect.gen(function*() {
        const registry = yield* Telemetry
        const plain = yield* raw(`${EXPORT}?format=csv`)
        const zipped = yield* raw(`${EXPORT}?format=csv`, { headers: { "accept-encoding": "gzip" } })
        assert.strictEqual(zipped.headers["content-encoding"], "gzip")
        assert.strictEqual(gunzipSync(zipped.body).toString("utf8"), plain.body.toString("utf8"))
        const { leave } = yield* holdingExport
        const refused = yield* call(EXPORT)
        assert.strictEqual(refused.status, 503)
        leave()
        yield* eventually(() => registry.render().includes("equides_exports_running 0"))
        assert.strictEqual((yield* call(`${EXPORT}?limite=3`)).status, 400)
        yield* call("/v1/stats")
        // The two exports and the 503 by the front door (the held one, cut by its client, has no line, as
        // it has no metric); the 400 and /v1/stats by the pipeline.
        yield* eventually(() => debugLines.filter((line) => line.includes("Requête servie")).length === 5)
        assert.isTrue(debugLines.filter((line) => line.includes("Requête servie")).every((line) => line.startsWith("Debug")))
      }))
  })

  layer(testServer(fromRecords(RECORDS), { frontDoor: false }))("without the front door", (it) => {
    it.effect("the pipeline streams the same records, compressed by Accept-Encoding as the front door does", () =>
      Effect.gen(function*() {
        const plain = yield* raw(`${EXPORT}?format=ndjson&race=Pur%20Sang`)
        assert.isUndefined(plain.headers["content-encoding"])
        const decoders = { gzip: gunzipSync, br: brotliDecompressSync, deflate: inflateSync }
        for (const [coding, decode] of Object.entries(decoders)) {
          const coded = yield* raw(`${EXPORT}?format=ndjson&race=Pur%20Sang`, { headers: { "accept-encoding": coding } })
          assert.strictEqual(coded.headers["content-encoding"], coding)
          assert.strictEqual(decode(coded.body).toString("utf8"), plain.body.toString("utf8"), coding)
        }
        const reply = plain
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], "application/x-ndjson; charset=utf-8")
        assert.match(reply.headers["content-disposition"]!, /^attachment; filename="equides-[0-9a-f]{12}\.ndjson"$/)
        assert.strictEqual(reply.body.toString("utf8").split("\n").length - 1, RECORDS.filter((r) => r.race === "Pur Sang").length)
        assert.strictEqual((yield* call(`${EXPORT}?limite=3`)).status, 400)
      }))
  })
})
