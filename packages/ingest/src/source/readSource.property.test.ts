import type { SourceIndex, SourceLink, SourcePerformance, SourceRecord } from "@equides/domain"
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import { CSV_HEADER, recordToCsvRow } from "../format/csvRow.ts"
import { normalizeRecord } from "./normalize.ts"
import { collect, temporaryDirectory, writeFile } from "./testing.ts"

const tmp = temporaryDirectory()
afterAll(() => tmp.remove())

// Quotes, commas and line breaks exercise CSV quoting; the full code-point range exercises UTF-8.
const text = fc.oneof(
  fc.string({ unit: "binary", minLength: 1, maxLength: 10 }),
  fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 10 }),
  fc.constantFrom(",", "\"", "\n", "\r\n", "\r", " ", "a,\"b\"", "ÉCLAIR D'ÉTÉ", "1'10\"2 (ASC6H)", "\uFEFFx")
)
const integer = fc.oneof(
  fc.integer({ min: 1900, max: 2030 }),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER })
)
const coefficient = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.double({ noNaN: true, noDefaultInfinity: true })
).map((value) => value + 0)

// Plain prototypes: the readers build ordinary objects, and strict equality compares prototypes.
const OPTIONAL: { requiredKeys: Array<never>; noNullPrototype: true } = { requiredKeys: [], noNullPrototype: true }

const someField = (value: object): boolean => Object.keys(value).length > 0

const link: fc.Arbitrary<SourceLink> = fc.record({ id: text, nom: text, race: text, pays: text, alias: text }, OPTIONAL)
  .filter(someField)
const index: fc.Arbitrary<SourceIndex> = fc.record({
  annee: integer,
  appreciation: text,
  code: text,
  coefficient,
  valeur: text
}, OPTIONAL).filter(someField)
const performance: fc.Arbitrary<SourcePerformance> = fc.record({
  discipline: text,
  texte: text,
  indices: fc.array(index, { minLength: 1, maxLength: 3 })
}, OPTIONAL).filter(someField)

/** Already normalised: every present value is one a reader can produce. */
const sourceRecord: fc.Arbitrary<SourceRecord> = fc.record({
  id: text,
  slug: text,
  nom: text,
  race: text,
  sexe: text,
  robe: text,
  annee_naissance: integer,
  statut_reproducteur: text,
  record: text,
  filiation_texte: text,
  pere: link,
  mere: link,
  pere_de_mere: link,
  performances: fc.array(performance, { minLength: 1, maxLength: 3 })
}, OPTIONAL)

/** What a scrape may hold: nulls, empty strings, wrong types, non-integers, unknown keys, naisseur. */
const messy = fc.oneof(
  fc.constant(null),
  fc.constant(""),
  text,
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  integer,
  fc.boolean(),
  fc.constant(2010.5),
  fc.constant(2 ** 53),
  fc.constant(-0),
  fc.constant([]),
  fc.constant({})
)
const messyLink = fc.oneof(
  messy,
  fc.record({ id: messy, nom: messy, race: messy, pays: messy, alias: messy, naisseur: messy }, OPTIONAL)
)
const messyPerformances = fc.oneof(
  messy,
  fc.array(fc.oneof(
    messy,
    fc.record({
      discipline: messy,
      texte: messy,
      indices: fc.oneof(
        messy,
        fc.array(fc.oneof(
          messy,
          fc.record({ annee: messy, appreciation: messy, code: messy, coefficient: messy, valeur: messy }, OPTIONAL)
        ), { maxLength: 3 })
      )
    }, OPTIONAL)
  ), { maxLength: 3 })
)
const rawRecord = fc.record({
  id: messy,
  slug: messy,
  nom: messy,
  race: messy,
  sexe: messy,
  robe: messy,
  annee_naissance: messy,
  statut_reproducteur: messy,
  record: messy,
  filiation_texte: messy,
  pere: messyLink,
  mere: messyLink,
  pere_de_mere: messyLink,
  performances: messyPerformances,
  naisseur: messy,
  inconnu: messy
}, OPTIONAL)

const writeBoth = (name: string, records: ReadonlyArray<object>, csvLineEnd: string) => {
  const rows = records.map((record) => recordToCsvRow(record as Record<string, unknown>))
  // A record starts one line after the previous one, plus the line breaks quoted inside it.
  let start = 2
  const csvLines = rows.map((row) => {
    const line = start
    start += 1 + row.split("\n").length - 1
    return line
  })
  return {
    jsonl: writeFile(tmp.path(`${name}.jsonl`), records.map((record) => JSON.stringify(record) + "\n").join("")),
    csv: writeFile(tmp.path(`${name}.csv`), [CSV_HEADER, ...rows].join(csvLineEnd) + csvLineEnd),
    csvLines
  }
}

const lineEnd = fc.constantFrom("\n", "\r\n")

const property = <A, B>(
  arbitrary: fc.Arbitrary<A>,
  other: fc.Arbitrary<B>,
  predicate: (value: A, other: B) => Effect.Effect<void>
) =>
  Effect.promise(() =>
    fc.assert(
      fc.asyncProperty(arbitrary, other, (value, second) => Effect.runPromise(predicate(value, second))),
      { numRuns: 80 }
    )
  )

describe("readSource round trips", () => {
  it.effect("records written as JSON Lines and as CSV read back equal", () =>
    property(fc.array(sourceRecord, { maxLength: 12 }), lineEnd, (records, csvLineEnd) =>
      Effect.gen(function*() {
        const files = writeBoth("normalised", records, csvLineEnd)
        const jsonl = yield* Effect.orDie(collect(files.jsonl))
        const csv = yield* Effect.orDie(collect(files.csv))
        expect(jsonl.records).toStrictEqual(records)
        expect(csv.records).toStrictEqual(records)
        expect(jsonl.lines).toEqual(records.map((_, i) => i + 1))
        expect(csv.lines).toEqual(files.csvLines)
      })), 60_000)

  it.effect("raw scraped records give the same records from either format", () =>
    property(fc.array(rawRecord, { maxLength: 12 }), lineEnd, (raws, csvLineEnd) =>
      Effect.gen(function*() {
        const files = writeBoth("raw", raws, csvLineEnd)
        const jsonl = yield* Effect.orDie(collect(files.jsonl))
        const csv = yield* Effect.orDie(collect(files.csv))
        // Equal values; the counts of wrong types differ, since a CSV cell is text whatever it holds.
        const values = (records: ReadonlyArray<SourceRecord>) => records.map(({ rejected: _, ...values }) => values)
        expect(values(csv.records)).toStrictEqual(values(jsonl.records))
        expect(csv.lines).toEqual(files.csvLines)
        expect(jsonl.records).toStrictEqual(raws.map((raw) => normalizeRecord(JSON.parse(JSON.stringify(raw)))))
        expect(JSON.stringify(jsonl.records)).not.toContain("naisseur")
      })), 60_000)
})
