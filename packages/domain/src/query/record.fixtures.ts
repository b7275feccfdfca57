/**
 * Test helpers for the record-level queries: readable ids and a small arbitrary of source records
 * (used until/unless a shared one exists in `src/testing/arbitraries.ts`). Not exported by the package.
 */
import * as fc from "fast-check"
import { buildDataset } from "../dataset/Dataset.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { encodeId, ID_BYTES } from "../dataset/ids.ts"
import { slugify } from "../text/fold.ts"
import type { SourceIndex, SourceLink, SourcePerformance, SourceRecord } from "../dataset/SourceRecord.ts"

/** A canonical id made from a small number (distinct numbers give distinct ids). */
export const idN = (n: number): string => {
  const bytes = new Uint8Array(ID_BYTES)
  bytes[0] = n & 0xff
  bytes[1] = (n >>> 8) & 0xff
  bytes[2] = (n >>> 16) & 0xff
  bytes[15] = 0x5a
  return encodeId(bytes, 0)
}

/** Row of the record with this id (throws when absent: a test's own mistake). */
export const rowOf = (data: DatasetData, id: string): number => {
  for (let row = 0; row < data.size; row++) if (encodeId(data.ids, row * ID_BYTES) === id) return row
  throw new Error(`no row for ${id}`)
}

export const build = (records: ReadonlyArray<SourceRecord>): DatasetData => buildDataset(records)

const POOL = 12
const names = fc.constantFrom("ALPHA", "BÉBÉ D'OR", "Éclair du Bois", "ZED", "abel", "  spaced  name ", "Ñandú", "a-b_c", "漢字")
const races = fc.constantFrom("Trotteur Francais", "Selle Francais", "Pur Sang", "1'10\"2 (ASC6H)", "Arabe")
const linkRaces = fc.constantFrom("TF", "SF", "PS", "AR", "AA")
const idText = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: POOL + 3 }).map(idN) },
  { weight: 1, arbitrary: fc.constantFrom("not-an-id", "AAAAAAAAAAAAAAAAAAAAAB", "") }
)

const link: fc.Arbitrary<SourceLink> = fc.record(
  { id: idText, nom: names, race: linkRaces, pays: fc.constantFrom("FR", "IRL"), alias: names },
  { requiredKeys: [] }
)

const index: fc.Arbitrary<SourceIndex> = fc.record(
  {
    annee: fc.integer({ min: 1990, max: 2025 }),
    appreciation: fc.constantFrom("indice-satisfaisant", "indice-excellent"),
    code: fc.constantFrom("BTR", "ISO", "ITR"),
    coefficient: fc.double({ min: 0, max: 1, noNaN: true }),
    valeur: fc.constantFrom("+59", "115", "-3")
  },
  { requiredKeys: [] }
)

const performance: fc.Arbitrary<SourcePerformance> = fc.record(
  {
    discipline: fc.constantFrom("TROT COURSE", "SAUT D'OBSTACLES", "DRESSAGE"),
    texte: fc.string({ maxLength: 12 }),
    indices: fc.array(index, { maxLength: 3 })
  },
  { requiredKeys: [] }
)

/** One record whose id is `idN(n)`; every other field may be missing. */
const record = (n: number): fc.Arbitrary<SourceRecord> =>
  fc
    .record(
      {
        slug: fc.oneof(fc.constant("deduce"), fc.constantFrom("given-slug", "bebe-dor-2")),
        nom: names,
        race: races,
        sexe: fc.constantFrom("Femelle", "Male", "Hongre", "Indeter", "Inconnu"),
        robe: fc.constantFrom("Bai", "Alezan", "Gris"),
        annee_naissance: fc.integer({ min: 190, max: 2025 }),
        statut_reproducteur: fc.constantFrom("Pouliniere", "Etalon Actif"),
        filiation_texte: fc.string({ minLength: 1, maxLength: 20 }),
        pere: link,
        mere: link,
        pere_de_mere: link,
        performances: fc.array(performance, { minLength: 1, maxLength: 3 })
      },
      { requiredKeys: [] }
    )
    .map((fields): SourceRecord => {
      const { slug, ...rest } = fields
      const base: SourceRecord = { id: idN(n), ...rest }
      if (slug === undefined) return base
      // "deduce" stands for the slug the registry would derive: exercises the deducible path.
      const value = slug === "deduce" ? slugify(rest.nom ?? "") : slug
      return value === "" ? base : { ...base, slug: value }
    })

/** A small record set: distinct ids from a pool (so links resolve, dangle or are unreadable). */
export const arbitraryRecords: fc.Arbitrary<ReadonlyArray<SourceRecord>> = fc
  .uniqueArray(fc.integer({ min: 0, max: POOL - 1 }), { minLength: 1, maxLength: POOL })
  .chain((ns) => fc.tuple(...ns.map(record)))
