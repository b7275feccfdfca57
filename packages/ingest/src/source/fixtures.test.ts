/**
 * Keeps fixtures/README.md honest: recomputes its expected anomaly counts from the records with
 * the plain definitions of design 1.3, so the Dataset builder's tests can rely on those numbers.
 */
import { isCanonicalId, LINK_KEYS, slugify, type SourceRecord } from "@equides/domain"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { collect, FIXTURES } from "./testing.ts"

const readableLinkIds = (record: SourceRecord): Array<string> =>
  LINK_KEYS.map((key) => record[key]?.id).filter((id): id is string => id !== undefined && isCanonicalId(id))

const countsOf = (records: ReadonlyArray<SourceRecord>) => {
  const loaded = records.filter((record) => record.id !== undefined && isCanonicalId(record.id))
  const ids = new Set(loaded.map((record) => record.id))
  const years = loaded.flatMap((record) => record.annee_naissance === undefined ? [] : [record.annee_naissance])
  const descendants = (id: string) => loaded.filter((record) => record.pere?.id === id || record.mere?.id === id).length
  return {
    records: records.length,
    identifiants_illisibles: records.length - loaded.length,
    parents_pendants: new Set(loaded.flatMap(readableLinkIds).filter((id) => !ids.has(id))).size,
    robe_absente: loaded.filter((record) => record.robe === undefined).length,
    annee_naissance_absente: loaded.filter((record) => record.annee_naissance === undefined).length,
    annee_naissance_min: Math.min(...years),
    annee_naissance_max: Math.max(...years),
    sans_filiation: loaded.filter((record) => readableLinkIds(record).length === 0).length,
    slugs_non_deductibles: loaded.filter((record) => record.slug !== undefined && record.slug !== slugify(record.nom ?? ""))
      .length,
    nom_absent: loaded.filter((record) => record.nom === undefined).length,
    avec_performances: loaded.filter((record) => record.performances !== undefined).length,
    descendants: {
      "QUAPRICE DE LA CROIX": descendants("3-PcFGrbngA01Bnj-D9fRw"),
      "JOLIE-FILLE": descendants("5SgrYz0tecAaE_YIVUAGHQ"),
      "BOOSTER WINNER": descendants("7emSEZR5S--OVMGJvEx5eA")
    }
  }
}

describe("anomalies fixture", () => {
  it.effect("carries the counts fixtures/README.md announces, in both formats", () =>
    Effect.gen(function*() {
      for (const file of ["anomalies.jsonl", "anomalies.csv"]) {
        const { records } = yield* collect(`${FIXTURES}${file}`)
        expect(countsOf(records)).toEqual({
          records: 13,
          identifiants_illisibles: 3,
          parents_pendants: 2,
          robe_absente: 3,
          annee_naissance_absente: 4,
          annee_naissance_min: 193,
          annee_naissance_max: 2019,
          sans_filiation: 5,
          slugs_non_deductibles: 1,
          nom_absent: 3,
          avec_performances: 5,
          descendants: { "QUAPRICE DE LA CROIX": 2, "JOLIE-FILLE": 2, "BOOSTER WINNER": 1 }
        })
      }
    }))
})
