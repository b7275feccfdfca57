import { afterAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import { blake3 } from "hash-wasm"
import { chmodSync, mkdirSync, readFileSync, statSync } from "node:fs"
import { gzipSync } from "node:zlib"
import { CSV_HEADER } from "../format/csvRow.ts"
import { WORKER_THRESHOLD_BYTES } from "./hasher.ts"
import { readSource } from "./readSource.ts"
import { SourceError } from "./SourceError.ts"
import { collect, FIXTURES, temporaryDirectory, writeFile } from "./testing.ts"

const JSONL = `${FIXTURES}anomalies.jsonl`
const CSV = `${FIXTURES}anomalies.csv`
const tmp = temporaryDirectory()
afterAll(() => tmp.remove())

const NAISSEURS = readFileSync(JSONL, "utf8").trim().split("\n").map((line) => JSON.parse(line).naisseur as string)

describe("readSource on the anomalies fixture", () => {
  it.effect("reads JSON Lines and CSV into equal records", () =>
    Effect.gen(function*() {
      const jsonl = yield* collect(JSONL)
      const csv = yield* collect(CSV)
      expect(jsonl.records).toHaveLength(13)
      expect(csv.records).toEqual(jsonl.records)
      expect(jsonl.lines).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
      // Header on line 1; record 7 holds a line break in a quoted cell, so the next ones start a line later.
      expect(csv.lines).toEqual([2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15])
      expect(jsonl.summary).toMatchObject({ format: "jsonl", compressed: false, lines: 13, records: 13 })
      expect(csv.summary).toMatchObject({ format: "csv", compressed: false, lines: 15, records: 13 })
    }))

  it.effect("normalises the anomalies as SourceRecord says", () =>
    Effect.gen(function*() {
      const { records } = yield* collect(JSONL)
      expect(records[6]).toEqual({
        id: "SaFC3mUVjfNegex-RoI9ZA",
        slug: "oustic-vivier",
        nom: "OUSTIC DU VIVIER",
        race: "1'10\"2 (ASC6H)",
        sexe: "Male",
        robe: "Bai Brun",
        annee_naissance: 2012,
        record: "1'12\"4 (AMA5N)",
        filiation_texte: "Par BOOSTER WINNER TF\net NUIT D'ENCRE TF",
        pere: { id: "7emSEZR5S--OVMGJvEx5eA", nom: "BOOSTER WINNER", race: "TF" },
        mere: { id: "vspVNbQ9YV_rUCcgu_k-vA", nom: "NUIT D'ENCRE", race: "TF" },
        performances: [{
          discipline: "TROT COURSE",
          texte: "BTR +59 (0.35)",
          indices: [{ code: "BTR", valeur: "59", coefficient: 0.35, annee: 2024, appreciation: "indice-satisfaisant" }]
        }]
      })
      expect(records[8]).toStrictEqual({ id: "iCYMQ0hCw4d_7_NFnLW63g", sexe: "Indeter", pere: { nom: "INCONNU", race: "PS" } })
      expect(records[9]).toStrictEqual({ id: "q-CKj4sfaHjXORhCa5vsbg", sexe: "Femelle", robe: "Gris", annee_naissance: 193 })
      expect(records[10]).toStrictEqual({
        id: "0UVBp8YH6jRKNoaC2IF-SQ",
        sexe: "Femelle",
        robe: "Isabelle",
        mere: { id: "pas_un_identifiant!", nom: "INCONNUE" }
      })
      expect(records[11]?.performances).toStrictEqual([{
        discipline: "CONCOURS COMPLET",
        texte: "ICC +98",
        indices: [{ code: "ICC", valeur: "+98", annee: 2024 }]
      }])
      expect(records[12]).toStrictEqual({
        id: "-WW9QBOGVWHsqvqq5TPmiA",
        slug: "miss-o-hara",
        nom: "MISS O'HARA",
        race: "Pur Sang",
        sexe: "Femelle",
        statut_reproducteur: "Pouliniere",
        pere_de_mere: { id: "7emSEZR5S--OVMGJvEx5eA", nom: "BOOSTER WINNER", race: "TF" }
      })
    }))

  it.effect("never lets naisseur through", () =>
    Effect.gen(function*() {
      for (const file of [JSONL, CSV]) {
        const { records } = yield* collect(file)
        const serialised = JSON.stringify(records)
        expect(serialised).not.toContain("naisseur")
        for (const naisseur of NAISSEURS) expect(serialised).not.toContain(naisseur)
        for (const record of records) expect(Object.keys(record)).not.toContain("naisseur")
      }
    }))

  it.effect("fingerprints the bytes as stored", () =>
    Effect.gen(function*() {
      const jsonl = yield* collect(JSONL)
      const csv = yield* collect(CSV)
      const jsonlBytes = readFileSync(JSONL)
      expect(jsonl.summary.fingerprint).toBe(yield* Effect.promise(() => blake3(jsonlBytes)))
      expect(jsonl.summary.fingerprint).toMatch(/^[0-9a-f]{64}$/)
      expect(jsonl.summary.bytes).toBe(jsonlBytes.length)
      expect(csv.summary.fingerprint).toBe(yield* Effect.promise(() => blake3(readFileSync(CSV))))
    }))

  it.effect("reads gzip files, by suffix or by magic bytes, and fingerprints the compressed bytes", () =>
    Effect.gen(function*() {
      const plain = yield* collect(JSONL)
      const plainCsv = yield* collect(CSV)
      const cases = [
        { file: writeFile(tmp.path("anomalies.jsonl.gz"), gzipSync(readFileSync(JSONL))), expected: plain },
        { file: writeFile(tmp.path("anomalies.ndjson.gz"), gzipSync(readFileSync(JSONL))), expected: plain },
        { file: writeFile(tmp.path("anomalies.csv.gz"), gzipSync(readFileSync(CSV))), expected: plainCsv },
        { file: writeFile(tmp.path("no-suffix.jsonl"), gzipSync(readFileSync(JSONL))), expected: plain }
      ]
      for (const { file, expected } of cases) {
        const read = yield* collect(file)
        expect(read.records).toEqual(expected.records)
        expect(read.lines).toEqual(expected.lines)
        const stored = readFileSync(file)
        expect(read.summary).toMatchObject({ compressed: true, bytes: stored.length, lines: expected.summary.lines })
        expect(read.summary.fingerprint).toBe(yield* Effect.promise(() => blake3(stored)))
        expect(read.summary.fingerprint).not.toBe(expected.summary.fingerprint)
      }
    }))
})

describe("readSource on a large file", () => {
  let large: { readonly file: string; readonly records: number } | undefined
  const largeFile = () => {
    if (large === undefined) {
      const lines = readFileSync(JSONL, "utf8")
      const copies = Math.ceil((WORKER_THRESHOLD_BYTES + 1) / Buffer.byteLength(lines))
      large = { file: writeFile(tmp.path("large.jsonl"), lines.repeat(copies)), records: 13 * copies }
    }
    return large
  }

  it.effect("hashes it in a worker thread to the same fingerprint", () =>
    Effect.gen(function*() {
      const { file, records } = largeFile()
      const { summary } = yield* collect(file)
      expect(summary.bytes).toBeGreaterThanOrEqual(WORKER_THRESHOLD_BYTES)
      expect(summary).toMatchObject({ lines: records, records })
      expect(summary.fingerprint).toBe(yield* Effect.promise(() => blake3(readFileSync(file))))
    }))

  it.live("stops reading when interrupted", () =>
    Effect.gen(function*() {
      const { file, records } = largeFile()
      let seen = 0
      const fiber = yield* Effect.forkChild(readSource(file, () => {
        seen++
        return undefined
      }))
      while (seen === 0) yield* Effect.sleep("1 millis")
      const exit = yield* Fiber.interrupt(fiber).pipe(Effect.andThen(Fiber.await(fiber)))
      expect(Exit.hasInterrupts(exit)).toBe(true)
      yield* Effect.sleep("200 millis")
      expect(seen).toBeLessThan(records)
    }))
})

describe("readSource line handling", () => {
  it.effect("skips blank lines, accepts CRLF and a byte order mark, and counts physical lines", () =>
    Effect.gen(function*() {
      const file = writeFile(tmp.path("crlf.jsonl"), "\uFEFF{\"id\":\"a\"}\r\n\r\n  \n{\"id\":\"b\"}\r\n{\"id\":\"c\"}")
      const { records, lines, summary } = yield* collect(file)
      expect(records).toEqual([{ id: "a" }, { id: "b" }, { id: "c" }])
      expect(lines).toEqual([1, 4, 5])
      expect(summary).toMatchObject({ lines: 5, records: 3 })
    }))

  it.effect("numbers CSV lines right with CRLF line ends, also inside quoted cells", () =>
    Effect.gen(function*() {
      const lf = yield* collect(CSV)
      const crlf = yield* collect(writeFile(tmp.path("crlf.csv"), readFileSync(CSV, "utf8").replaceAll("\n", "\r\n")))
      expect(crlf.lines).toEqual(lf.lines)
      expect(crlf.summary.lines).toBe(lf.summary.lines)
      expect(crlf.records[6]?.filiation_texte).toBe("Par BOOSTER WINNER TF\r\net NUIT D'ENCRE TF")
      expect(crlf.records.toSpliced(6, 1)).toEqual(lf.records.toSpliced(6, 1))
      const blank = yield* collect(writeFile(tmp.path("blank.csv"), `${CSV_HEADER}\r\n\r\nx${",".repeat(CSV_HEADER.split(",").length - 1)}\r\n`))
      expect(blank.lines).toEqual([3])
    }))

  it.effect("keeps multi-byte characters cut by chunk boundaries", () =>
    Effect.gen(function*() {
      // Lines of odd length full of two-byte characters: the 1 MiB read chunks and the 256 KiB
      // inflated chunks end inside characters and inside lines many times over.
      const names = Array.from({ length: 8000 }, (_, i) => `ÉCLAIR D'ÉTÉ ${"Ç".repeat(100 + (i % 97))} ${i}`)
      let text = names.map((nom) => JSON.stringify({ nom })).join("\n") + "\n"
      // Leading blank lines shift the bytes until the first 1 MiB read ends inside a character.
      while ((Buffer.from(text)[1 << 20] & 0xc0) !== 0x80) text = "\n" + text
      const file = writeFile(tmp.path("boundaries.jsonl"), text)
      const gz = writeFile(tmp.path("boundaries.jsonl.gz"), gzipSync(text))
      expect(Buffer.byteLength(text)).toBeGreaterThan(2 * 1024 * 1024)
      for (const path of [file, gz]) {
        const { records } = yield* collect(path)
        expect(records.map((record) => record.nom)).toEqual(names)
      }
    }))

  it.effect("treats an empty file as no records, not an error", () =>
    Effect.gen(function*() {
      const empty = yield* Effect.promise(() => blake3(new Uint8Array(0)))
      for (const name of ["empty.jsonl", "empty.csv", "empty.jsonl.gz"]) {
        const { records, summary } = yield* collect(writeFile(tmp.path(name), ""))
        expect(records).toEqual([])
        expect(summary).toMatchObject({ bytes: 0, lines: 0, records: 0, fingerprint: empty })
      }
      const gzippedNothing = yield* collect(writeFile(tmp.path("nothing.csv.gz"), gzipSync("")))
      expect(gzippedNothing.summary).toMatchObject({ compressed: true, records: 0 })
      const headerOnly = yield* collect(writeFile(tmp.path("header.csv"), `${CSV_HEADER}\n`))
      expect(headerOnly.summary).toMatchObject({ lines: 1, records: 0 })
    }))

  it.effect("reports progress, ending on the whole file", () =>
    Effect.gen(function*() {
      const reports: Array<{ lines: number; bytesRead: number; totalBytes: number; elapsedMs: number }> = []
      const { summary } = yield* collect(JSONL, { onProgress: (progress) => reports.push(progress), progressIntervalMs: 0 })
      const last = reports.at(-1)
      expect(last).toMatchObject({ lines: 13, bytesRead: summary.bytes, totalBytes: statSync(JSONL).size })
      expect(last!.elapsedMs).toBeGreaterThanOrEqual(0)
    }))

  it.effect("takes the format from the options when the name does not tell", () =>
    Effect.gen(function*() {
      const file = writeFile(tmp.path("extract.txt"), readFileSync(CSV))
      const { records, summary } = yield* collect(file, { format: "csv" })
      expect(records).toHaveLength(13)
      expect(summary.format).toBe("csv")
      const error = yield* Effect.flip(collect(file))
      expect(error).toMatchObject({ file, reason: expect.stringContaining("unknown file type") })
      expect(error.line).toBeUndefined()
    }))
})

describe("readSource errors", () => {
  const fails = (file: string, sink: Parameters<typeof readSource>[1] = () => undefined) =>
    Effect.flip(readSource(file, sink))

  it.effect("a truncated JSON line", () =>
    Effect.gen(function*() {
      const file = writeFile(tmp.path("truncated.jsonl"), "{\"id\":\"a\"}\n{\"id\":\"b\",\"nom\":\"ÉCL")
      const error = yield* fails(file)
      expect(error).toBeInstanceOf(SourceError)
      expect(error.file).toBe(file)
      expect(error.line).toBe(2)
      expect(error.reason).toMatch(/^invalid JSON: .*JSON/)
      expect(error.message).toBe(`${file}:2: ${error.reason}`)
    }))

  it.effect("a JSON value that is not an object", () =>
    Effect.gen(function*() {
      const cases: Array<readonly [string, string]> = [
        ["[{\"id\":\"b\"}]", "expected a JSON object, found an array"],
        ["42", "expected a JSON object, found a number"],
        ["null", "expected a JSON object, found null"],
        ["\"x\"", "expected a JSON object, found a string"]
      ]
      for (const [value, reason] of cases) {
        const file = writeFile(tmp.path("not-object.jsonl"), `{"id":"a"}\n\n${value}\n{"id":"c"}\n`)
        expect(yield* fails(file)).toMatchObject({ _tag: "SourceError", file, line: 3, reason })
      }
    }))

  it.effect("a CSV row with the wrong number of cells", () =>
    Effect.gen(function*() {
      const width = CSV_HEADER.split(",").length
      const row = (cells: number) => Array.from({ length: cells }, () => "").join(",")
      const file = writeFile(tmp.path("width.csv"), `${CSV_HEADER}\n${row(width)}\n\n${row(width - 1)}\n`)
      expect(yield* fails(file)).toMatchObject({
        file,
        line: 4,
        reason: `expected ${width} cells, found ${width - 1}`
      })
    }))

  it.effect("a bad CSV header", () =>
    Effect.gen(function*() {
      const header = CSV_HEADER.replace(",naisseur", "").replace("robe", "robe,couleur,id")
      const file = writeFile(tmp.path("header.csv"), `${header}\n`)
      const error = yield* fails(file)
      expect(error.line).toBe(1)
      expect(error.reason).toMatch(/^bad CSV header: /)
      expect(error.reason).toContain("missing naisseur")
      expect(error.reason).toContain("unknown \"couleur\"")
      expect(error.reason).toContain("repeated id")
      const jsonAsCsv = yield* fails(writeFile(tmp.path("records.csv"), readFileSync(JSONL)))
      expect(jsonAsCsv).toMatchObject({ line: 1, reason: expect.stringMatching(/^invalid CSV: /) })
    }))

  it.effect("an invalid performances cell", () =>
    Effect.gen(function*() {
      const columns = CSV_HEADER.split(",")
      const row = (performances: string) => columns.map((column) => column === "performances" ? performances : "").join(",")
      const broken = writeFile(tmp.path("performances.csv"), `${CSV_HEADER}\n${row("")}\n${row("\"[{\"\"discipline\"\":\"")}\n`)
      expect(yield* fails(broken)).toMatchObject({
        file: broken,
        line: 3,
        reason: expect.stringMatching(/^invalid performances cell: .*JSON/)
      })
      const object = writeFile(tmp.path("performances-object.csv"), `${CSV_HEADER}\n${row("\"{\"\"a\"\":1}\"")}\n`)
      expect(yield* fails(object)).toMatchObject({
        line: 2,
        reason: "invalid performances cell: expected a JSON array, found an object"
      })
    }))

  it.effect("a CSV quote left open", () =>
    Effect.gen(function*() {
      const width = CSV_HEADER.split(",").length
      const file = writeFile(tmp.path("quote.csv"), `${CSV_HEADER}\n"open${",".repeat(width - 1)}\n`)
      const error = yield* fails(file)
      expect(error.reason).toMatch(/^invalid CSV: /)
      expect(error.line).toBeTypeOf("number")
    }))

  it.effect("a missing file", () =>
    Effect.gen(function*() {
      const file = tmp.path("missing.jsonl")
      const error = yield* fails(file)
      expect(error).toMatchObject({ _tag: "SourceError", file, reason: "file not found (ENOENT)" })
      expect(error.line).toBeUndefined()
      expect(error.message).toBe(`${file}: file not found (ENOENT)`)
    }))

  it.effect("a directory", () =>
    Effect.gen(function*() {
      const dir = tmp.path("folder.jsonl")
      mkdirSync(dir)
      expect(yield* fails(dir)).toMatchObject({ file: dir, reason: "is a directory, not a file (EISDIR)" })
    }))

  // Root reads anything: the check only means something for an ordinary user.
  it.effect.skipIf(process.getuid?.() === 0)("a file that cannot be read", () =>
    Effect.gen(function*() {
      const file = writeFile(tmp.path("secret.jsonl"), "{}\n")
      chmodSync(file, 0o000)
      expect(yield* fails(file)).toMatchObject({ file, reason: "permission denied (EACCES)" })
    }))

  it.effect("corrupt gzip data", () =>
    Effect.gen(function*() {
      const whole = gzipSync(readFileSync(JSONL))
      const truncated = writeFile(tmp.path("truncated.jsonl.gz"), whole.subarray(0, whole.length - 20))
      expect(yield* fails(truncated)).toMatchObject({ file: truncated, reason: "invalid gzip data: unexpected end of file" })
      const notGzip = writeFile(tmp.path("plain.jsonl.gz"), readFileSync(JSONL))
      expect(yield* fails(notGzip)).toMatchObject({ reason: "invalid gzip data: incorrect header check" })
    }))

  it.effect("a sink rejection stops the load at that record", () =>
    Effect.gen(function*() {
      for (const [file, line] of [[JSONL, 8], [CSV, 10]] as const) {
        let calls = 0
        const error = yield* fails(file, (record) => {
          calls++
          return record.id === "7emSEZR5S--OVMGJvEx5eA" ? "duplicate id 7emSEZR5S--OVMGJvEx5eA" : undefined
        })
        expect(error).toMatchObject({ file, line, reason: "duplicate id 7emSEZR5S--OVMGJvEx5eA" })
        expect(calls).toBe(8)
      }
    }))
})
