/**
 * `GET /v1/export/equides.parquet`: the file written once in `EXPORT_DIR` (in a thread of its own,
 * which has exited when the write is reported done, and whose failure is an error, not a crash),
 * read back by DuckDB equal to the records (same count, order and values, typed columns), then
 * served from disk with ETag, 304, HEAD and Range (206, 416); the byte ranges parsed as RFC 9110 says.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { assert, describe, it, layer } from "@effect/vitest"
import { buildDataset, type DatasetData, equide, fromRecords, performancesOf, type SourceRecord } from "@equides/domain"
import { idN, spelledDatasetArbitrary } from "@equides/domain/testing"
import { loadDataset, SAMPLE_FILE } from "@equides/ingest"
import { shareDataset } from "@equides/ingest/shared"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { call, raw, testServer } from "../testing/server.ts"
import { eventually } from "../testing/time.ts"
import { EXPORT_CSV_COLUMNS } from "./exportBody.ts"
import { PARQUET_ROW_GROUP, writeParquet } from "./parquet.ts"
import { rangeOf } from "./parquetFile.ts"
import { startParquetThread } from "./parquetThread.ts"

const RECORDS: ReadonlyArray<SourceRecord> = Array.from({ length: 1200 }, (_, i): SourceRecord => ({
  id: idN(i + 1),
  nom: i % 9 === 0 ? `NOM "${i}", ÉTÉ` : `CHEVAL ${i}`,
  race: i % 2 === 0 ? "Selle Francais" : "Pur Sang",
  sexe: i % 3 === 0 ? "Femelle" : "Male",
  ...(i % 11 === 0 ? {} : { annee_naissance: 1980 + (i % 40) }),
  ...(i % 5 === 0 ? {} : { robe: "Bai" }),
  ...(i > 10 && i % 2 === 0 ? { pere: { id: idN((i % 10) + 1), nom: "PERE", race: "SF" } } : {}),
  ...(i % 4 === 0 ? { mere: { nom: "MERE ABSENTE", race: "PS" } } : {}),
  ...(i % 6 === 0 ? { performances: [{ discipline: "CSO", indices: [{ code: "ISO", valeur: "+130", annee: 2020 }] }] } : {})
}))

const PARQUET = "/v1/export/equides.parquet"
const dir = mkdtempSync(join(tmpdir(), "equides-parquet-"))

/** A row as DuckDB reads it, in the NDJSON record's shape (absent values dropped). */
const asRecord = (row: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const key of ["id", "nom", "slug", "url", "race", "sexe", "nombre_de_descendants", "annee_naissance", "robe", "filiation_texte"]) {
    if (row[key] !== null) out[key] = row[key]
  }
  for (const link of ["pere", "mere", "pere_de_mere"]) {
    const value: Record<string, unknown> = {}
    for (const field of ["id", "nom", "race", "fiche_disponible"]) if (row[`${link}_${field}`] !== null) value[field] = row[`${link}_${field}`]
    if (Object.keys(value).length > 0) out[link] = value
  }
  if (row.performances !== null) out.performances = JSON.parse(String(row.performances))
  return out
}

/** The rows of the Parquet file at `path`, as DuckDB reads them. */
const readParquet = async (path: string): Promise<Array<Record<string, unknown>>> => {
  const instance = await DuckDBInstance.create(":memory:")
  const connection = await instance.connect()
  const read = (await connection.runAndReadAll(`SELECT * FROM read_parquet('${path}')`)).getRowObjectsJS()
  connection.closeSync()
  instance.closeSync()
  return read
}

/**
 * Every record of `data` as the record route answers it (a JSON round trip: the values a reader
 * gets), a text's leading byte order mark dropped: `@duckdb/node-api` decodes a VARCHAR without it
 * (the file holds it: DuckDB's own `octet_length` counts its three bytes).
 */
const recordsOf = (data: DatasetData): Array<unknown> =>
  Array.from({ length: data.size }, (_, row) =>
    JSON.parse(JSON.stringify(equide(data, row)), (_key, value: unknown) => (typeof value === "string" ? value.replace(/^\uFEFF/, "") : value)))

describe("parquet", () => {
  it.effect("writeParquet: DuckDB reads back every record, generated of any Unicode (spelled filiations, dangling links) and the embedded sample", () =>
    Effect.gen(function*() {
      // DuckDB refuses a JSON value holding an escaped lone surrogate (`\udc00`), which JSON allows
      // and a performance's generated text may hold: such sets are left out.
      const generated = fc.sample(spelledDatasetArbitrary({ minLength: 1, maxLength: 120, withAnyText: true }), { numRuns: 16, seed: 30 })
        .filter(({ data }) => !Array.from({ length: data.size }, (_, row) => JSON.stringify(performancesOf(data, row) ?? [])).some((json) => /\\ud[89a-f]/i.test(json)))
      assert.isAbove(generated.length, 5)
      const sample = yield* loadDataset(SAMPLE_FILE)
      const written = mkdtempSync(join(tmpdir(), "equides-parquet-written-"))
      for (const [k, data] of [...generated.map((g) => g.data), sample].entries()) {
        const path = join(written, `${k}.parquet`)
        // Row groups of 7 records (the last one partial) for the generated sets, the server's for the sample.
        writeParquet(data, path, data === sample ? PARQUET_ROW_GROUP : 7)
        const read = yield* Effect.promise(() => readParquet(path))
        assert.deepStrictEqual(read.map(asRecord), recordsOf(data))
      }
    }), 120_000)

  it.effect("in its own thread: DuckDB reads back the records, and the thread has exited when the write is done", () =>
    Effect.gen(function*() {
      const data = buildDataset(RECORDS)
      const path = join(mkdtempSync(join(tmpdir(), "equides-parquet-thread-")), "extract.parquet")
      const { thread, done } = startParquetThread(shareDataset(data).share, path)
      const exits: Array<number> = []
      thread.on("exit", (code) => exits.push(code))
      yield* Effect.promise(() => done)
      assert.deepStrictEqual(exits, [0])
      // Node's id of a thread no longer running.
      assert.strictEqual(thread.threadId, -1)
      assert.deepStrictEqual((yield* Effect.promise(() => readParquet(path))).map(asRecord), recordsOf(data))
    }), 60_000)

  it.effect("a write that fails in the thread rejects with its cause, and leaves no file", () =>
    Effect.gen(function*() {
      const share = shareDataset(buildDataset(RECORDS)).share
      const path = join(mkdtempSync(join(tmpdir(), "equides-parquet-failed-")), "missing", "extract.parquet")
      const failed = startParquetThread(share, path)
      const error = yield* Effect.flip(Effect.tryPromise(() => failed.done))
      assert.match(String(error.cause), /the Parquet file .*missing\/extract\.parquet was not written: Error: ENOENT/)
      assert.strictEqual(failed.thread.threadId, -1)
      assert.isFalse(existsSync(path))
      const dying = startParquetThread(share, path, new URL("./crashingParquetWorker.fixture.ts", import.meta.url))
      const died = yield* Effect.flip(Effect.tryPromise(() => dying.done))
      assert.match(String(died.cause), /the Parquet thread exited with code 3 before writing .*extract\.parquet/)
    }), 60_000)

  it.effect("a write removes the partial files of writers that no longer run, and leaves a running one's", () =>
    Effect.gen(function*() {
      const directory = mkdtempSync(join(tmpdir(), "equides-parquet-orphans-"))
      const path = join(directory, "extract.parquet")
      // Above Linux's largest pid (2^22): no process runs with it.
      const orphan = `${path}.${2 ** 22 + 1}.partial`
      const running = `${path}.${process.ppid}.partial`
      const other = join(directory, "other.parquet.1.partial")
      for (const file of [orphan, running, other]) writeFileSync(file, "")
      writeParquet(buildDataset(RECORDS), path)
      assert.deepStrictEqual(readdirSync(directory).sort(), ["extract.parquet", "extract.parquet." + process.ppid + ".partial", "other.parquet.1.partial"])
    }))

  it("reads one byte range as RFC 9110 says", () => {
    assert.deepStrictEqual(rangeOf("bytes=0-9", 100), { start: 0, end: 9 })
    assert.deepStrictEqual(rangeOf("bytes=90-", 100), { start: 90, end: 99 })
    assert.deepStrictEqual(rangeOf("bytes=-10", 100), { start: 90, end: 99 })
    assert.deepStrictEqual(rangeOf("bytes=-500", 100), { start: 0, end: 99 })
    assert.deepStrictEqual(rangeOf("bytes=50-500", 100), { start: 50, end: 99 })
    assert.strictEqual(rangeOf("bytes=100-", 100), "unsatisfiable")
    assert.strictEqual(rangeOf("bytes=-0", 100), "unsatisfiable")
    assert.isUndefined(rangeOf("bytes=0-1,5-6", 100))
    assert.isUndefined(rangeOf("bytes=9-1", 100))
    assert.isUndefined(rangeOf("items=0-1", 100))
    assert.isUndefined(rangeOf(undefined, 100))
  })

  layer(testServer(fromRecords(RECORDS), { settings: { exportDir: dir, workers: 1 } }), { timeout: 60_000 })("served", (it) => {
    it.effect("written once in its own thread; read back by DuckDB equal to the records", () =>
      Effect.gen(function*() {
        const reply = yield* raw(PARQUET)
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], "application/vnd.apache.parquet")
        assert.strictEqual(reply.headers["accept-ranges"], "bytes")
        assert.strictEqual(reply.headers["content-length"], String(reply.body.length))
        const name = /^attachment; filename="(equides-[0-9a-f]{12}\.parquet)"$/.exec(reply.headers["content-disposition"]!)?.[1]
        assert.isDefined(name)
        assert.deepStrictEqual(readdirSync(dir), [name])
        const downloaded = join(dir, "downloaded.parquet")
        writeFileSync(downloaded, reply.body)
        const rows = yield* Effect.promise(async () => {
          const instance = await DuckDBInstance.create(":memory:")
          const connection = await instance.connect()
          const types = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${downloaded}')`)).getRowObjectsJson()
          const read = (await connection.runAndReadAll(`SELECT * FROM read_parquet('${downloaded}')`)).getRowObjectsJS()
          connection.closeSync()
          instance.closeSync()
          return { names: types.map((t) => t.column_name), types: Object.fromEntries(types.map((t) => [t.column_name, t.column_type])), read }
        })
        // The CSV export's columns, in its order.
        assert.deepStrictEqual(rows.names, [...EXPORT_CSV_COLUMNS])
        assert.strictEqual(rows.types.nombre_de_descendants, "INTEGER")
        assert.strictEqual(rows.types.annee_naissance, "INTEGER")
        assert.strictEqual(rows.types.pere_fiche_disponible, "BOOLEAN")
        assert.strictEqual(rows.types.nom, "VARCHAR")
        const ndjson = (yield* call("/v1/export/equides")).text.split("\n").slice(0, -1).map((line) => JSON.parse(line))
        assert.strictEqual(rows.read.length, RECORDS.length)
        assert.deepStrictEqual(rows.read.map(asRecord), ndjson)
      }))

    it.effect("ETag, 304, HEAD and Range", () =>
      Effect.gen(function*() {
        const whole = yield* raw(PARQUET)
        const etag = whole.headers["etag"]!
        assert.strictEqual((yield* raw(PARQUET, { headers: { "if-none-match": etag } })).status, 304)
        // The file's bytes whatever the request accepts: one ETag, validated across codings.
        const coded = yield* raw(PARQUET, { headers: { "accept-encoding": "gzip, br" } })
        assert.strictEqual(coded.headers["etag"], etag)
        assert.isUndefined(coded.headers["content-encoding"])
        assert.isTrue(coded.body.equals(whole.body))
        assert.strictEqual((yield* raw(PARQUET, { headers: { "if-none-match": etag, "accept-encoding": "br" } })).status, 304)
        const resumed = yield* raw(PARQUET, { headers: { range: "bytes=0-9", "if-range": etag, "accept-encoding": "gzip" } })
        assert.strictEqual(resumed.status, 206)
        const head = yield* raw(PARQUET, { method: "HEAD" })
        assert.strictEqual(head.status, 200)
        assert.strictEqual(head.headers["content-length"], String(whole.body.length))
        assert.strictEqual(head.body.length, 0)
        const part = yield* raw(PARQUET, { headers: { range: "bytes=4-99" } })
        assert.strictEqual(part.status, 206)
        assert.strictEqual(part.headers["content-range"], `bytes 4-99/${whole.body.length}`)
        assert.isTrue(part.body.equals(whole.body.subarray(4, 100)))
        const tail = yield* raw(PARQUET, { headers: { range: "bytes=-8" } })
        assert.strictEqual(tail.status, 206)
        assert.strictEqual(tail.body.toString("latin1").slice(4), "PAR1")
        const past = yield* raw(PARQUET, { headers: { range: `bytes=${whole.body.length}-` } })
        assert.strictEqual(past.status, 416)
        assert.strictEqual(past.headers["content-range"], `bytes */${whole.body.length}`)
        const stale = yield* raw(PARQUET, { headers: { range: "bytes=0-9", "if-range": "\"another\"" } })
        assert.strictEqual(stale.status, 200)
        assert.strictEqual((yield* call(`${PARQUET}?format=csv`)).status, 400)
      }))
  })

  const early = mkdtempSync(join(tmpdir(), "equides-parquet-start-"))
  layer(testServer(fromRecords(RECORDS), { settings: { exportDir: early, exportParquet: "start" } }), { timeout: 60_000 })("EXPORT_PARQUET=start", (it) => {
    it.effect("the file is written at start, before any request asks for it", () =>
      Effect.gen(function*() {
        yield* eventually(() => readdirSync(early).some((name) => /^equides-[0-9a-f]{12}\.parquet$/.test(name)))
        assert.strictEqual((yield* raw(PARQUET)).status, 200)
      }))
  })

  layer(testServer(fromRecords(RECORDS), { settings: { exportDir: join(dir, "missing", "directory") } }))("unwritable EXPORT_DIR", (it) => {
    it.effect("a write that fails is a 500 problem, not a hang; the next request tries again", () =>
      Effect.gen(function*() {
        for (let i = 0; i < 2; i++) {
          const reply = yield* call(PARQUET)
          assert.strictEqual(reply.status, 500)
          assert.strictEqual(reply.headers["content-type"], "application/problem+json")
        }
      }))
  })
})
