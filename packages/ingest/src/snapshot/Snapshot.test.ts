import { buildDataset, type DatasetData, dictionaryValues, type Provenance, type SourceRecord } from "@equides/domain"
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { readFile, stat, truncate, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
// The domain's shared arbitraries are not exported by its package (fast-check is a dev dependency).
import { idN, recordsArbitrary } from "@equides/domain/testing"
import { collectLeaves } from "./shape.ts"
import { codeDigest } from "../codeDigest.ts"
import { BUILDER_SOURCES, builderSignature, readSnapshot, readSnapshotTree, SNAPSHOT_FORMAT_VERSION, writeSnapshot } from "./Snapshot.ts"
import type { SnapshotError } from "./SnapshotError.ts"
import { signedByAnotherBuilder } from "./testing.ts"

const dir = mkdtempSync(join(tmpdir(), "equides-snapshot-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let counter = 0
const fresh = (): string => join(dir, `snapshot-${++counter}.bin`)

const SOURCE = { size: 123_456, mtimeMs: 1_717_171_717_171.25 }
const PROVENANCE: Provenance = {
  file: "équidés.jsonl",
  fingerprint: "ab".repeat(32),
  bytes: 123_456,
  lines: 5,
  ingestedAt: "2025-06-01T12:00:00.000Z"
}

const HAND_WRITTEN: ReadonlyArray<SourceRecord> = [
  {
    id: idN(0),
    slug: "booster-winner",
    nom: "BOOSTER WINNER",
    race: "Trotteur Francais",
    sexe: "Male",
    robe: "Bai",
    annee_naissance: 1997,
    statut_reproducteur: "Etalon Actif"
  },
  { id: idN(1), nom: "JEWELLE DARK", race: "Trotteur Francais", sexe: "Femelle", robe: "Alezan", annee_naissance: 2001 },
  {
    id: idN(2),
    slug: "qabalah-mercury",
    nom: "QABALAH MERCURY",
    race: "Trotteur Francais",
    sexe: "Male",
    robe: "Bai",
    annee_naissance: 2012,
    statut_reproducteur: "Etalon Actif",
    record: "1'11\"9 (AEL3V)",
    filiation_texte: "Par BOOSTER WINNER TF et JEWELLE DARK TF par CHARLY DU NOYER TF",
    pere: { id: idN(0), nom: "BOOSTER WINNER", race: "TF" },
    mere: { id: idN(1), nom: "JEWELLE DARK", race: "TF", pays: "IRL" },
    pere_de_mere: { id: idN(99), nom: "CHARLY DU NOYER", race: "TF", alias: "CHARLY" },
    performances: [
      {
        discipline: "TROT COURSE",
        texte: "BTR +59 (0.35)",
        indices: [{ code: "BTR", valeur: "+59", coefficient: 0.35, annee: 2024, appreciation: "indice-satisfaisant" }]
      }
    ]
  },
  // Non-ASCII, a leading BOM and a lone surrogate in dimension values: they must all survive.
  { id: idN(3), nom: "DALIA AL SHAHANIA ÉTÉ", slug: "autre-chose", race: "\uFEFFSelle Français 🐎", sexe: "Hongre", robe: "Gris\uD800" },
  { id: idN(4), nom: "", race: "1'10\"2 (ASC6H)", sexe: "Indeter", annee_naissance: 193 }
]

const bufferOf = (view: ArrayBufferView): Buffer => Buffer.from(view.buffer, view.byteOffset, view.byteLength)

/** Every leaf of both trees equal, leaf by leaf (paths, kinds, typed-array types, contents). */
const expectSameDataset = (actual: DatasetData, expected: DatasetData): void => {
  const a = collectLeaves(actual)
  const b = collectLeaves(expected)
  expect(a.map((leaf) => leaf.path.join("."))).toEqual(b.map((leaf) => leaf.path.join(".")))
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]]
    expect(x.kind).toBe(y.kind)
    if (x.kind === "typed" && y.kind === "typed") {
      expect(x.type, x.path.join(".")).toBe(y.type)
      expect(x.value.length, x.path.join(".")).toBe(y.value.length)
      expect(Buffer.compare(bufferOf(x.value), bufferOf(y.value)), x.path.join(".")).toBe(0)
    } else if (x.kind !== "object" && y.kind !== "object" && y.kind !== "typed") {
      expect(x.value, x.path.join(".")).toStrictEqual(y.value)
    }
  }
  expect(actual).toStrictEqual(expected)
}

const roundTrip = (data: DatasetData) =>
  Effect.gen(function*() {
    const path = fresh()
    yield* writeSnapshot(data, path, SOURCE)
    return yield* readSnapshot(path, { ...SOURCE, fingerprint: data.provenance.fingerprint })
  })

const refusal = (path: string, expected?: Parameters<typeof readSnapshot>[1]) =>
  readSnapshot(path, expected).pipe(
    Effect.flip,
    Effect.map((error: SnapshotError) => {
      expect(error._tag).toBe("SnapshotError")
      expect(error.file).toBe(path)
      expect(error.message).toBe(`${path}: ${error.reason}`)
      return error.reason
    })
  )

/** A written snapshot of the hand-written records and its bytes. */
const written = Effect.gen(function*() {
  const path = fresh()
  const data = buildDataset(HAND_WRITTEN, PROVENANCE)
  yield* writeSnapshot(data, path, SOURCE)
  const bytes = yield* Effect.promise(() => readFile(path))
  return { path, data, bytes }
})

describe("snapshot round trip", () => {
  it.effect("hand-written records", () =>
    Effect.gen(function*() {
      const data = buildDataset(HAND_WRITTEN, PROVENANCE)
      const read = yield* roundTrip(data)
      expectSameDataset(read, data)
      expect(read.provenance).toStrictEqual(PROVENANCE)
      expect(read.anomalies).toStrictEqual(data.anomalies)
      // Dictionaries hold UTF-8: a lone surrogate (only a record built in memory has one) is kept
      // as U+FFFD, a leading byte order mark as it is.
      expect(dictionaryValues(read.robe.values)).toContain("Gris\uFFFD")
      expect(dictionaryValues(read.race.values)).toContain("\uFEFFSelle Français 🐎")
    }))

  it.effect("an empty dataset (0 rows)", () =>
    Effect.gen(function*() {
      const data = buildDataset([])
      const read = yield* roundTrip(data)
      expect(read.size).toBe(0)
      expectSameDataset(read, data)
    }))

  it.effect("typed arrays are views on the one file buffer (zero copy)", () =>
    Effect.gen(function*() {
      const { path, data } = yield* written
      const read = yield* readSnapshot(path)
      const typed = collectLeaves(read).flatMap((leaf) => (leaf.kind === "typed" ? [leaf.value] : []))
      expect(typed.length).toBe(collectLeaves(data).filter((leaf) => leaf.kind === "typed").length)
      const buffers = new Set(typed.map((array) => array.buffer))
      expect(buffers.size).toBe(1)
      const [buffer] = buffers
      expect(buffer.byteLength).toBe((yield* Effect.promise(() => stat(path))).size)
      for (const array of typed) expect(array.byteOffset % 8).toBe(0)
    }))

  it.effect("records generated by the domain's shared arbitrary", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(recordsArbitrary({ maxLength: 80 }), async (records) => {
          const data = buildDataset(records)
          const read = await Effect.runPromise(roundTrip(data))
          expectSameDataset(read, data)
        }),
        { numRuns: 30 }
      )
    ), 60_000)

  it.effect("records with text of any Unicode, lone surrogates included", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(recordsArbitrary({ maxLength: 30, withAnyText: true }), async (records) => {
          const data = buildDataset(records)
          const read = await Effect.runPromise(roundTrip(data))
          expectSameDataset(read, data)
        }),
        { numRuns: 40 }
      )
    ), 60_000)
})

describe("generic walk", () => {
  it.effect("fields of any supported kind round-trip, whatever their names", () =>
    Effect.gen(function*() {
      const base = buildDataset(HAND_WRITTEN, PROVENANCE)
      const tree = {
        ...base,
        "odd.key": { __proto__x: 1, "": "empty key" },
        extra: {
          nan: NaN,
          negativeZero: -0,
          infinity: -Infinity,
          nothing: undefined,
          flag: true,
          empty: {},
          noStrings: [] as Array<string>,
          // UTF-8 cannot carry a lone surrogate: the header's patches restore it.
          strings: ["Gris\uD800", "\uFEFFSelle Français 🐎", ""],
          floats: new Float64Array([1.5, -2.25]),
          bigs: new BigInt64Array([-1n, 2n ** 62n]),
          bytes: new Int8Array([-128, 127]),
          view: base.ids.subarray(16, 32)
        }
      }
      const path = fresh()
      yield* writeSnapshot(tree as unknown as DatasetData, path, SOURCE)
      const read = yield* readSnapshotTree(path, tree)
      expect(read).toStrictEqual({ ...tree, extra: { ...tree.extra, view: Uint8Array.from(base.ids.subarray(16, 32)) } })
      // The current build's shape differs: readSnapshot refuses the same file.
      expect(yield* refusal(path)).toMatch(/^stale: written for another Dataset shape/)
    }))
})

describe("snapshot refusals", () => {
  it.effect("a flipped byte in the body: checksum", () =>
    Effect.gen(function*() {
      const { path, bytes } = yield* written
      const at = bytes.length - 3
      bytes[at] ^= 0x10
      yield* Effect.promise(() => writeFile(path, bytes))
      expect(yield* refusal(path)).toBe("corrupt: body checksum mismatch")
    }))

  it.effect("a flipped byte in the header: checksum", () =>
    Effect.gen(function*() {
      const { path, bytes } = yield* written
      bytes[45] ^= 0x01
      yield* Effect.promise(() => writeFile(path, bytes))
      expect(yield* refusal(path)).toBe("corrupt: header checksum mismatch")
    }))

  it.effect("a truncated file", () =>
    Effect.gen(function*() {
      const { path, bytes } = yield* written
      yield* Effect.promise(() => truncate(path, bytes.length - 100))
      expect(yield* refusal(path)).toMatch(/^truncated: \d+ bytes, the snapshot announces \d+$/)
      yield* Effect.promise(() => truncate(path, 10))
      expect(yield* refusal(path)).toMatch(/^truncated: 10 bytes/)
    }))

  it.effect("bytes past the end", () =>
    Effect.gen(function*() {
      const { path, bytes } = yield* written
      yield* Effect.promise(() => writeFile(path, Buffer.concat([bytes, Buffer.alloc(8)])))
      expect(yield* refusal(path)).toMatch(/^corrupt: 8 bytes past the announced end/)
    }))

  it.effect("a wrong magic", () =>
    Effect.gen(function*() {
      const { path, bytes } = yield* written
      bytes.write("NOTASNAP", 0, "latin1")
      yield* Effect.promise(() => writeFile(path, bytes))
      expect(yield* refusal(path)).toBe("not a Dataset snapshot (bad magic)")
    }))

  it.effect("another format version", () =>
    Effect.gen(function*() {
      const { path, bytes } = yield* written
      bytes.writeUInt32LE(SNAPSHOT_FORMAT_VERSION + 1, 8)
      yield* Effect.promise(() => writeFile(path, bytes))
      expect(yield* refusal(path)).toBe(
        `snapshot format version ${SNAPSHOT_FORMAT_VERSION + 1}, this build reads version ${SNAPSHOT_FORMAT_VERSION}`
      )
    }))

  it.effect("another Dataset shape (a field added or removed by another build)", () =>
    Effect.gen(function*() {
      const data = buildDataset(HAND_WRITTEN, PROVENANCE)
      const { byYear: _removed, ...rest } = data
      const other = { ...rest, extra: { counts: new Uint16Array([1, 2]) } } as unknown as DatasetData
      const path = fresh()
      yield* writeSnapshot(other, path, SOURCE)
      const reason = yield* refusal(path)
      expect(reason).toMatch(/^stale: written for another Dataset shape/)
      expect(reason).toContain("missing byYear (typed:uint)")
      expect(reason).toContain("unexpected extra.counts (typed:uint)")

      // A change of kind at the same path (signed instead of unsigned) is a shape change too.
      const signed = { ...data, byName: Int32Array.from(data.byName) } as unknown as DatasetData
      yield* writeSnapshot(signed, path, SOURCE)
      expect(yield* refusal(path)).toContain("byName (typed:int)")
    }))

  it.effect("written by another Dataset builder: same shape, same source, refused (its columns may mean something else)", () =>
    Effect.gen(function*() {
      const { path } = yield* written
      const other = "0".repeat(64)
      yield* Effect.promise(() => signedByAnotherBuilder(path, other))
      const reason = yield* refusal(path, { ...SOURCE, fingerprint: PROVENANCE.fingerprint })
      expect(reason).toBe(
        `stale: written by another Dataset builder (code signature ${other.slice(0, 12)}…, this build's ${builderSignature().slice(0, 12)}…): ` +
          "its columns may be computed otherwise"
      )
      // Signed back with this build's signature, the same bytes are read.
      yield* Effect.promise(() => signedByAnotherBuilder(path, builderSignature()))
      expect((yield* readSnapshot(path, { ...SOURCE, fingerprint: PROVENANCE.fingerprint })).size).toBe(HAND_WRITTEN.length)
    }))

  it.effect("stale: the source's size, mtime or fingerprint differs", () =>
    Effect.gen(function*() {
      const { path } = yield* written
      expect(yield* refusal(path, { size: SOURCE.size + 1 })).toBe(
        `stale: built from a source of ${SOURCE.size} bytes, the source now has ${SOURCE.size + 1}`
      )
      expect(yield* refusal(path, { mtimeMs: SOURCE.mtimeMs + 1 })).toMatch(/^stale: built from a source modified at /)
      expect(yield* refusal(path, { fingerprint: "cd".repeat(32) })).toBe(
        `stale: built from a source with fingerprint ${"ab".repeat(32)}, the source now has ${"cd".repeat(32)}`
      )
      // The same values are accepted.
      const read = yield* readSnapshot(path, { ...SOURCE, fingerprint: PROVENANCE.fingerprint })
      expect(read.size).toBe(HAND_WRITTEN.length)
    }))

  it.effect("a missing file", () =>
    Effect.gen(function*() {
      const path = join(dir, "absent.bin")
      expect(yield* refusal(path)).toMatch(/^cannot read: ENOENT/)
    }))

  it.effect("an unsupported value is refused when writing, naming its path", () =>
    Effect.gen(function*() {
      const data = { ...buildDataset([]), weird: { table: new Map() } } as unknown as DatasetData
      const path = fresh()
      const error = yield* Effect.flip(writeSnapshot(data, path, SOURCE))
      expect(error.reason).toBe("unsupported value at weird.table (Map)")
    }))
})

describe("the builder signature", () => {
  const repository = new URL("../../../../", import.meta.url)
  const packages = new URL("../../../", import.meta.url)

  it("is the digest of the code that builds and lays out a Dataset", () => {
    expect(builderSignature()).toMatch(/^[0-9a-f]{64}$/)
    expect(builderSignature()).toBe(codeDigest(repository, BUILDER_SOURCES))
  })

  /** The files `file` imports (relative specifiers and the workspace's `@equides/domain/build`), values only. */
  const importsOf = (file: URL): Array<URL> => {
    const text = readFileSync(file, "utf8")
    const found: Array<URL> = []
    for (const match of text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s+"([^"]+)"/gm)) {
      const specifier = match[1]!
      if (specifier.startsWith(".")) found.push(new URL(specifier, file))
      else if (specifier === "@equides/domain/build") found.push(new URL("domain/src/dataset/build/index.ts", packages))
    }
    for (const match of text.matchAll(/new URL\("(\.[^"]+\.ts)", import\.meta\.url\)/g)) found.push(new URL(match[1]!, file))
    return found
  }

  it("covers every module the builder and the loader run (a guard: a new module elsewhere must join BUILDER_SOURCES)", () => {
    const covered = (url: URL): boolean => {
      const path = url.pathname.slice(repository.pathname.length)
      return BUILDER_SOURCES.some((source) => path === source || path.startsWith(`${source}/`))
    }
    const entries = ["ingest/src/load/loadDataset.ts", "domain/src/dataset/build/index.ts", "domain/src/dataset/build/DatasetAssembler.ts", "domain/src/dataset/build/DatasetBuilder.ts"]
    const seen = new Set<string>()
    const queue = entries.map((entry) => new URL(entry, packages))
    const outside: Array<string> = []
    while (queue.length > 0) {
      const file = queue.pop()!
      if (seen.has(file.href)) continue
      seen.add(file.href)
      if (!covered(file)) outside.push(file.pathname.slice(repository.pathname.length))
      queue.push(...importsOf(file))
    }
    expect(seen.size).toBeGreaterThan(20)
    // Progress reporting reads no column.
    expect(outside.filter((path) => path !== "packages/ingest/src/progress/workProgress.ts")).toEqual([])
  })
})
