/**
 * The JSON Lines fast path against the reference. For any line (as bytes), the scanner either
 * gives up, or gives spans whose encoding (`encodeSpans`) is exactly the encoding of
 * `normalizeRecord(JSON.parse(line))`: same batch rows, same dictionaries, same counts. It never
 * accepts a line JSON.parse refuses. Lines are built from pieces chosen to hit every rule: known
 * keys given twice or with escapes, values of every JSON type, numbers in every notation, escapes,
 * odd whitespace, deep nesting, truncations, stray bytes that are not UTF-8.
 */
import { RecordEncoder } from "@equides/domain"
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { generateExtract } from "../generate/generateExtract.ts"
import { LineScanner } from "./lineScanner.ts"
import { normalizeRecord } from "./normalize.ts"

/** Feeds lines to two encoders, by the reference path and by the fast path; answers how many took the fast path. */
const compare = (lines: ReadonlyArray<Uint8Array>): number => {
  const reference = new RecordEncoder()
  const fast = new RecordEncoder()
  const scanner = new LineScanner()
  let scanned = 0
  lines.forEach((bytes, i) => {
    const text = Buffer.from(bytes).toString("utf8")
    const spans = scanner.scan(bytes, 0, bytes.length)
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      expect(spans).toBeUndefined()
      return
    }
    const record = normalizeRecord(parsed)
    if (record === undefined) {
      expect(spans).toBeUndefined()
      return
    }
    const kept = reference.encode(record, i + 1)
    if (spans !== undefined) {
      scanned++
      expect(fast.encodeSpans(spans, i + 1)).toBe(kept)
    } else {
      expect(fast.encode(record, i + 1)).toBe(kept)
    }
  })
  const into = (length: number) => new ArrayBuffer(length)
  expect(fast.take(into)).toStrictEqual(reference.take(into))
  expect(fast.summary()).toStrictEqual(reference.summary())
  return scanned
}

const utf8 = (line: string): Uint8Array => new Uint8Array(Buffer.from(line, "utf8"))

const whitespace = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom("", "", "", " ", "\t", "\r", "\n", "  ") },
  // Not JSON whitespace.
  { weight: 1, arbitrary: fc.constantFrom("\u00a0", "\ufeff") }
)

const jsonString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("", "x", "TF", "JOLIE", "ÉCLAIR D'ÉTÉ", "1'10\"2 (ASC6H)", "a\\b", "\u2028", "漢字", "\ud83d\udc0e") },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 8 }) }
)

/** A string literal: as JSON.stringify writes it, or with gratuitous escapes, or broken. */
const stringLiteral = jsonString.chain((value) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant(JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.constant(JSON.stringify(value).replace(/[A-Za-z]/, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)) },
    { weight: 2, arbitrary: fc.constant(JSON.stringify(value).replace(/^"/, "\"\\/\\b\\f\\n\\r\\t\\\"\\\\")) },
    // Possibly broken: raw control characters, unterminated.
    { weight: 1, arbitrary: fc.constantFrom(`"${value}"`, JSON.stringify(value).slice(0, -1)) }
  )
)

const numberLiteral = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: -3000, max: 3000 }).map(String) },
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      "0", "-0", "2012", "2012.0", "2.012e3", "2012E0", "2012e+0", "20120e-1", "1e21", "-1e400", "1e400", "0.35", "0.1e1",
      "9007199254740993", "123456789012345", "1234567890123456", "-123456789012345", "0.1", "-0.0"
    )
  },
  { weight: 4, arbitrary: fc.double().filter(Number.isFinite).map(String) },
  { weight: 1, arbitrary: fc.constantFrom("01", "1.", ".5", "+1", "1e", "- 1", "0x10", "NaN", "Infinity", "-") }
)

const literal = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom("null", "true", "false") },
  { weight: 1, arbitrary: fc.constantFrom("nul", "True") }
)

const scalar: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: stringLiteral },
  { weight: 2, arbitrary: numberLiteral },
  { weight: 1, arbitrary: literal }
)

const KEYS = {
  record: [
    "id", "slug", "nom", "race", "sexe", "robe", "annee_naissance", "statut_reproducteur", "record", "filiation_texte", "pere",
    "mere", "pere_de_mere", "performances", "naisseur", "autre", "__proto__"
  ],
  link: ["id", "nom", "race", "pays", "alias", "autre"],
  performance: ["discipline", "texte", "indices", "autre"],
  index: ["annee", "appreciation", "code", "coefficient", "valeur", "autre"]
} as const
type Level = keyof typeof KEYS

const keyLiteral = (level: Level) =>
  fc.oneof(
    { weight: 40, arbitrary: fc.constantFrom(...KEYS[level]).map((key) => JSON.stringify(key)) },
    { weight: 1, arbitrary: fc.constantFrom("\"n\\u006fm\"", "\"id \"", "\"\"", "nom") }
  )

const objectOf = (level: Level, member: (key: string) => fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.array(
        keyLiteral(level).chain((key) =>
          fc.tuple(member(key), whitespace, whitespace).map(([value, before, after]) => `${key}${before}:${after}${value}`)
        ),
        { maxLength: 8 }
      ),
      fc.array(whitespace, { minLength: 4, maxLength: 4 }),
      fc.oneof({ weight: 30, arbitrary: fc.constant(",") }, { weight: 1, arbitrary: fc.constantFrom(";", ",,") })
    )
    .map(([members, ws, comma]) => `{${ws[0]}${members.join(`${ws[1]}${comma}${ws[2]}`)}${ws[3]}}`)

const arrayOf = (element: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc
    .tuple(fc.array(element, { maxLength: 4 }), fc.array(whitespace, { minLength: 3, maxLength: 3 }))
    .map(([elements, ws]) => `[${ws[0]}${elements.join(`${ws[1]},${ws[2]}`)}${ws[0]}]`)

/** Any JSON value (and a few broken ones), for unknown keys and wrong types. */
const anyValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 20, arbitrary: scalar },
  { weight: 4, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", "{", "[1,]", "{\"a\":1,}") }
)

const indexValue = objectOf("index", () => anyValue)
const performanceValue = objectOf("performance", (key) => key === "\"indices\"" ? fc.oneof(arrayOf(fc.oneof(indexValue, anyValue)), anyValue) : anyValue)
const linkValue = objectOf("link", () => anyValue)

const recordLine: fc.Arbitrary<string> = fc
  .tuple(
    objectOf("record", (key) => {
      if (key === "\"pere\"" || key === "\"mere\"" || key === "\"pere_de_mere\"") return fc.oneof(linkValue, linkValue, anyValue)
      if (key === "\"performances\"") return fc.oneof(arrayOf(fc.oneof(performanceValue, performanceValue, anyValue)), anyValue)
      return anyValue
    }),
    whitespace,
    whitespace,
    fc.nat()
  )
  .map(([object, before, after, cut]) => `${before}${object}${after}`.slice(0, cut % 100 === 0 ? cut % 37 : undefined))

/** `bytes` with `byte` inserted at `at`. */
const withByteAt = (bytes: Uint8Array, at: number, byte: number): Uint8Array => {
  const out = new Uint8Array(bytes.length + 1)
  out.set(bytes.subarray(0, at))
  out[at] = byte
  out.set(bytes.subarray(at), at + 1)
  return out
}

/** A line as bytes, sometimes with a stray byte that is not UTF-8 (or a cut sequence) somewhere. */
const lineBytes = fc.tuple(recordLine, fc.nat(), fc.integer({ min: 0x80, max: 0xff }), fc.nat(9)).map(([line, at, byte, roll]) => {
  const bytes = utf8(line)
  if (roll !== 0 || bytes.length === 0) return bytes
  return withByteAt(bytes, at % bytes.length, byte)
})

// ---------------------------------------------------------------------------------------------
// Realistic lines (the generator's), edited towards every rule of the fast path

const POOL = [...generateExtract({ seed: 5, count: 400 })]

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }
type Edit = (line: Record<string, Json>) => void

const NAMES = ["JOLIE", "JOLIE DU BOIS", "JOLIE ", "jolie", "Éclair", "ÉCLAIR D'ÉTÉ", "A  B", " A", "A-B", "Ñandú", "ǅ", "ZÈBRE 2000", "漢字", "x"]
const ODD = [null, "", 0, -0, 1.5, 2012.0, "x", [], {}, true, "Par INCONNU", 1e21] as const
const RECORD_KEYS = ["id", "slug", "nom", "race", "sexe", "robe", "annee_naissance", "statut_reproducteur", "filiation_texte", "pere", "mere", "pere_de_mere", "performances"]
const LINK_KEYS = ["pere", "mere", "pere_de_mere"] as const

const isLink = (value: Json | undefined): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The registry's filiation for the line's links as the normaliser keeps them; undefined when they spell none. */
const spelled = (line: Record<string, Json>): string | undefined => {
  const part = (value: Json | undefined): string | null | undefined => {
    const link = isLink(value) ? value : undefined
    const nom = typeof link?.nom === "string" && link.nom !== "" ? link.nom : undefined
    const race = typeof link?.race === "string" && link.race !== "" ? link.race : undefined
    if (nom === undefined && race === undefined) return undefined
    return nom === undefined || race === undefined ? null : `${nom} ${race}`
  }
  const [pere, mere, pdm] = LINK_KEYS.map((key) => part(line[key]))
  if (pere === null || mere === null) return undefined
  const head = `Par ${pere ?? "INCONNU"}`
  if (mere === undefined) return head
  if (pdm === null) return undefined
  return pdm === undefined ? `${head} et ${mere}` : `${head} et ${mere} par ${pdm}`
}

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.tuple(fc.constantFrom(...RECORD_KEYS), fc.constantFrom(...ODD)).map(([key, value]): Edit => (line) => {
    line[key] = value
  }),
  fc.constantFrom(...RECORD_KEYS).map((key): Edit => (line) => {
    delete line[key]
  }),
  fc.tuple(fc.constantFrom("nom", "race", "robe", "sexe", "statut_reproducteur"), fc.constantFrom(...NAMES, "Male", "Femelle", "Indeter", "male")).map(
    ([key, value]): Edit => (line) => {
      line[key] = value
    }
  ),
  fc.tuple(fc.constantFrom(...LINK_KEYS), fc.constantFrom("id", "nom", "race", "pays"), fc.constantFrom(...NAMES, ...ODD, "TF", "pas-un-id")).map(
    ([key, field, value]): Edit => (line) => {
      const link = line[key]
      line[key] = { ...(isLink(link) ? link : {}), [field]: value }
    }
  ),
  fc.tuple(fc.constantFrom(...LINK_KEYS), fc.constantFrom("nom", "race")).map(([key, field]): Edit => (line) => {
    const link = line[key]
    if (isLink(link)) {
      const { [field]: _, ...rest } = link
      line[key] = rest
    }
  }),
  // Filiations: exactly spelled from the links, or nearly.
  fc.constantFrom("spelled", "spelled", "spelled ", " spelled", "Spelled").map((kind): Edit => (line) => {
    const text = spelled(line)
    if (text === undefined) return
    line.filiation_texte = kind === "spelled" ? text : kind === "Spelled" ? text.toLowerCase() : kind.replace("spelled", text)
  }),
  fc.constantFrom("slug", "SLUG", "slug-2", "").map((kind): Edit => (line) => {
    const nom = typeof line.nom === "string" ? line.nom : ""
    const slug = nom.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")
    line.slug = kind === "slug" ? slug : kind === "SLUG" ? slug.toUpperCase() : kind === "slug-2" ? `${slug}-2` : ""
  }),
  fc.tuple(fc.constantFrom("valeur", "coefficient", "annee", "code", "appreciation"), fc.constantFrom(...ODD, 59, "+059", 0.355, "1e3", -3)).map(
    ([field, value]): Edit => (line) => {
      const performances = line.performances
      if (!Array.isArray(performances) || performances.length === 0) return
      const performance = performances[0]
      if (!isLink(performance) || !Array.isArray(performance.indices)) return
      const index = performance.indices[0]
      if (isLink(index)) performance.indices[0] = { ...index, [field]: value }
    }
  )
)

/** Writes the edited line with some whitespace, and now and then an escape or a stray byte in a string. */
const realisticLine: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    fc.constantFrom(...POOL),
    fc.array(edit, { maxLength: 5 }),
    fc.constantFrom("", "", "", " ", "\t"),
    fc.nat(19),
    fc.nat(),
    fc.integer({ min: 0x80, max: 0xff })
  )
  .map(([raw, edits, space, roll, at, byte]) => {
    const line = structuredClone(raw) as Record<string, Json>
    for (const apply of edits) apply(line)
    let text = space === "" ? JSON.stringify(line) : JSON.stringify(line, null, space).replace(/\n/g, "")
    // An escape in some string (kept or not): `"` → `\u0022`-style for a letter.
    if (roll === 1) text = text.replace(/"([A-Z])/, (_, c: string) => `"\\u00${c.charCodeAt(0).toString(16)}`)
    const bytes = utf8(text)
    if (roll !== 2) return bytes
    // A byte that is not UTF-8, inside a string when it lands there.
    return withByteAt(bytes, at % bytes.length, byte)
  })

/** Compares generated batches with the reference path; answers how many lines took the fast path. */
const compareBatches = (line: fc.Arbitrary<Uint8Array>, maxLength: number, numRuns: number) => {
  let scanned = 0
  let lines = 0
  fc.assert(
    fc.property(fc.array(line, { minLength: 1, maxLength }), (batch) => {
      scanned += compare(batch)
      lines += batch.length
    }),
    { numRuns }
  )
  return { scanned, lines }
}

describe("LineScanner", () => {
  it("encodes realistic lines, edited every way, exactly like JSON.parse and the normaliser", () => {
    const { scanned, lines } = compareBatches(realisticLine, 8, 1000)
    expect(scanned).toBeGreaterThan(lines / 2)
  }, 60_000)

  it("gives up, or gives spans that encode exactly like JSON.parse and the normaliser", () => {
    const { scanned, lines } = compareBatches(lineBytes, 12, 600)
    // The fast path is really exercised, not just given up on.
    expect(scanned).toBeGreaterThan(lines / 10)
  }, 60_000)

  it("reads numbers exactly as JSON.parse does", () => {
    const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max })
    const decimal = fc
      .tuple(fc.boolean(), digits(1, 18), fc.option(digits(1, 20)), fc.option(fc.tuple(fc.constantFrom("e", "E+", "e-"), digits(1, 3))))
      .map(([negative, whole, fraction, exponent]) =>
        `${negative ? "-" : ""}${whole.replace(/^0+(?=\d)/, "")}${fraction === null ? "" : `.${fraction}`}${exponent === null ? "" : exponent.join("")}`
      )
    fc.assert(
      fc.property(fc.array(decimal, { minLength: 1, maxLength: 6 }), (numbers) => {
        const lines = numbers.map((n) => utf8(`{"id":"AAAAAAAAAAAAAAAAAAAAAA","annee_naissance":${n},"performances":[{"indices":[{"coefficient":${n},"valeur":${n},"annee":${n}}]}]}`))
        expect(compare(lines)).toBe(lines.length)
      }),
      { numRuns: 500 }
    )
  })

  it("never accepts what JSON.parse refuses, whatever the text", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary-ascii" }), fc.json().map((json) => json.slice(0, -1))), (line) => {
        compare([utf8(line)])
      }),
      { numRuns: 1000 }
    )
  })

  it("reads almost every line the generator writes on the fast path, to the same rows", () => {
    const lines = [...generateExtract({ seed: 3, count: 3000 })].map((raw) => utf8(JSON.stringify(raw)))
    // Breed fields polluted with a race time (`1'10"2`) hold an escape: those few lines are parsed.
    expect(compare(lines)).toBeGreaterThan(lines.length * 0.99)
  })

  it("keeps the normaliser's rules on values", () => {
    const scanner = new LineScanner()
    const scan = (line: string) => scanner.scan(utf8(line), 0, utf8(line).length)
    const spans = scan(JSON.stringify({
      naisseur: "Jean \"Le Grand\"",
      annee_naissance: 2012.0,
      nom: "",
      race: null,
      pere: { id: "x", pays: "" },
      performances: [{ indices: [{ valeur: 59, coefficient: -0 }, {}, null] }, {}, null],
      id: "abc"
    }))
    expect(spans?.annee).toBe(2012)
    expect(spans?.performances).toStrictEqual([{ indices: [{ coefficient: 0, valeur: "59" }] }])
    // A value of the wrong type is the normaliser's to count (`types_invalides`): the line leaves the fast path.
    for (const wrong of ["{\"sexe\": 1}", "{\"sexe\": [\"Male\"]}", "{\"nom\": true}", "{\"pere\": \"X\"}", "{\"pere\": [1]}", "{\"annee_naissance\": \"1990\"}", "{\"performances\": {}}", "{\"performances\": [3]}", "{\"pere\": {\"pays\": 1}}", "{\"record\": {}}", "{\"performances\": [{\"indices\": [{\"valeur\": []}]}]}"]) {
      expect(scan(wrong), wrong).toBeUndefined()
    }
    // A lone surrogate escape where the Dataset does not keep the value still leaves it; other escapes there do not.
    expect(scan("{\"record\": \"\\ud800\"}")).toBeUndefined()
    expect(scan("{\"record\": \"1'10\\\"2\"}")).toBeDefined()
    expect(scan("{\"annee_naissance\": -0, \"id\": \"a\"}")?.annee).toBe(0)
    expect(scan("{\"id\": \"a\", \"id\": \"b\"}")).toBeUndefined()
    expect(scan("{\"nom\": \"A\\\"B\"}")).toBeUndefined()
    expect(scan("{\"n\\u006fm\": \"A\"}")).toBeUndefined()
    expect(scan("[1]")).toBeUndefined()
    expect(scan("{} x")).toBeUndefined()
    expect(scan(" {}\r")).toBeDefined()
  })
})
