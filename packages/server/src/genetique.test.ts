/** The genetics routes through the real pipeline: bodies known by hand, problems, the HTTP contract, the typed client. */
import { assert, describe, layer } from "@effect/vitest"
import { fromRecords, Genetique, makeApiClient, type SourceRecord, StatsGenetique } from "@equides/domain"
import { idN } from "@equides/domain/testing"
import * as Effect from "effect/Effect"
import { shape } from "./testing/family.ts"
import { call, testServer } from "./testing/server.ts"
import { SPEC_JSON as JSON_UTF8 } from "./testing/spec.ts"

const PROBLEM = "application/problem+json"

const A = idN(1)
const M1 = idN(2)
const M2 = idN(3)
const S = idN(4)
const D = idN(5)
/** S × D: paternal half-sibs, F = 1/8. */
const X = idN(6)
/** S × M2: F = 0. */
const Y = idN(7)
/** Born after the year of loading: its breed has no reference population. */
const LATE = idN(8)
const ABSENT = idN(99)

const horse = (id: string, nom: string, annee_naissance: number, sexe: string, pere?: string, mere?: string, race = "Selle Francais"): SourceRecord => ({
  id,
  nom,
  race,
  sexe,
  annee_naissance,
  ...(pere === undefined ? {} : { pere: { id: pere, nom: "" } }),
  ...(mere === undefined ? {} : { mere: { id: mere, nom: "" } })
})

const RECORDS: ReadonlyArray<SourceRecord> = [
  horse(A, "ALPHA", 2000, "Male"),
  horse(M1, "MERE UN", 2000, "Femelle"),
  horse(M2, "MERE DEUX", 2000, "Femelle"),
  horse(S, "SIRE", 2010, "Male", A, M1),
  horse(D, "DAME", 2010, "Femelle", A, M2),
  horse(X, "XENA", 2020, "Femelle", S, D),
  // Another spelling of the breed: folded alike, so in the same reference population.
  horse(Y, "YOUPI", 2021, "Male", S, M2, "SELLE FRANÇAIS"),
  horse(LATE, "TARDIF", 2026, "Male", undefined, undefined, "Pur Sang")
]

const PROVENANCE = { file: "genetique.jsonl", fingerprint: "0".repeat(64), bytes: 0, lines: RECORDS.length, ingestedAt: "2024-06-01T00:00:00.000Z" }

layer(testServer(fromRecords(RECORDS, PROVENANCE)))("genetique routes", (it) => {
  describe("GET /v1/equides/{id}/genetique", () => {
    it.effect("serves F over all generations, t, generations, ΔF, the mean coancestry and the breed's reference", () =>
      Effect.gen(function*() {
        const reply = yield* call(`/v1/equides/${X}/genetique`)
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
        // Reference: Selle Francais born 2017–2021 (2021 is the breed's last year not after 2024): X and Y.
        // f(X, X) = 9/16, f(X, Y) = 7/32: mean 25/64.
        assert.deepStrictEqual(shape(Genetique, reply.json), {
          id: X,
          consanguinite: 0.125,
          generations_equivalentes: 2,
          generations_completes: 2,
          generations_max: 2,
          accroissement_individuel: 0.125,
          parente_moyenne: 0.390625,
          reference: { race: "Selle Francais", annee_min: 2017, annee_max: 2021, effectif: 2, consanguinite_moyenne: 0.0625 }
        })
        const founder = shape(Genetique, (yield* call(`/v1/equides/${A}/genetique`)).json)
        assert.include(founder, { consanguinite: 0, generations_equivalentes: 0, generations_max: 0, accroissement_individuel: null })
        // f(A, X) = (f(A, S) + f(A, D))/2 = 1/4 (A is both grandsires), f(A, Y) = (f(A, S) + f(A, M2))/2 = 1/8: mean 3/16.
        assert.strictEqual(founder.parente_moyenne, 0.1875)
        const late = shape(Genetique, (yield* call(`/v1/equides/${LATE}/genetique`)).json)
        assert.strictEqual(late.reference, null)
        assert.strictEqual(late.parente_moyenne, null)
      }))

    it.effect("answers 404 to an unknown or malformed id, 400 to a query parameter", () =>
      Effect.gen(function*() {
        const unknown = yield* call(`/v1/equides/${ABSENT}/genetique`)
        const malformed = yield* call("/v1/equides/pas-un-id/genetique")
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(unknown.text, malformed.text)
        const extra = yield* call(`/v1/equides/${X}/genetique?generations=3`)
        assert.strictEqual(extra.status, 400)
        assert.strictEqual(extra.headers["content-type"], PROBLEM)
      }))

    it.effect("carries an ETag, answers 304 and HEAD", () =>
      Effect.gen(function*() {
        const path = `/v1/equides/${X}/genetique`
        const reply = yield* call(path)
        const etag = reply.headers["etag"]
        assert.isString(etag)
        const again = yield* call(path, { headers: { "if-none-match": etag } })
        assert.strictEqual(again.status, 304)
        assert.strictEqual(again.text, "")
        const head = yield* call(path, { method: "HEAD" })
        assert.strictEqual(head.status, 200)
        assert.strictEqual(head.text, "")
        assert.strictEqual(head.headers["etag"], etag)
      }))
  })

  describe("GET /v1/stats/genetique", () => {
    it.effect("serves every birth year of the selection and the reference population's founders and ancestors", () =>
      Effect.gen(function*() {
        const reply = yield* call("/v1/stats/genetique?race=selle%20francais")
        assert.strictEqual(reply.status, 200)
        const body = shape(StatsGenetique, reply.json)
        assert.strictEqual(body.race, "Selle Francais")
        assert.deepStrictEqual(body.annees.map((a) => [a.annee, a.effectif]), [[2000, 3], [2010, 2], [2020, 1], [2021, 1]])
        assert.deepStrictEqual(body.annees[2], {
          annee: 2020,
          effectif: 1,
          consanguinite_moyenne: 0.125,
          consanguins: 1,
          au_moins_6_25: 1,
          au_moins_12_5: 1,
          generations_equivalentes_moyennes: 2,
          accroissement_moyen: 0.125,
          taille_efficace: 4
        })
        // t = 1 in 2010: no ΔF; ΔF = 0 in 2021: no Ne.
        assert.include(body.annees[1], { accroissement_moyen: null, taille_efficace: null })
        assert.include(body.annees[3], { accroissement_moyen: 0, taille_efficace: null })
        const reference = body.reference!
        // Founders: A 3/8, M1 1/4, M2 3/8. Ancestors: S 1/2, then M2 3/8, then A 1/8 (ties with D, older).
        assert.include(reference, { annee_min: 2017, annee_max: 2021, effectif: 2, ancetres_retenus: 3, contribution_expliquee: 1 })
        assert.closeTo(reference.fondateurs_efficaces, 64 / 22, 1e-12)
        assert.closeTo(reference.ancetres_efficaces!, 64 / 26, 1e-12)
        // (2020 − 2010) × 2, 2021 − 2010, 2021 − 2000.
        assert.strictEqual(reference.intervalle_generation, 13)
        assert.deepStrictEqual(reference.principaux_ancetres.map((a) => [a.id, a.contribution]), [[S, 0.5], [M2, 0.375], [A, 0.125]])
        assert.deepStrictEqual(reference.principaux_ancetres[0], { id: S, nom: "SIRE", race: "Selle Francais", sexe: "Male", annee_naissance: 2010, contribution: 0.5 })
      }))

    it.effect("selects years; without race, the whole extract", () =>
      Effect.gen(function*() {
        const years = shape(StatsGenetique, (yield* call("/v1/stats/genetique?race=SELLE%20FRAN%C3%87AIS&annee_min=2010&annee_max=2020")).json)
        assert.deepStrictEqual(years.annees.map((a) => a.annee), [2010, 2020])
        const all = shape(StatsGenetique, (yield* call("/v1/stats/genetique")).json)
        assert.strictEqual(all.race, null)
        assert.deepStrictEqual(all.annees.map((a) => a.annee), [2000, 2010, 2020, 2021, 2026])
        // The whole extract's last year not after 2024 is 2021: the same two members.
        assert.strictEqual(all.reference?.effectif, 2)
        const none = shape(StatsGenetique, (yield* call("/v1/stats/genetique?race=Pur%20Sang")).json)
        assert.strictEqual(none.reference, null)
      }))

    it.effect("refuses a race the reference list lacks, annee_min > annee_max, an empty race (400)", () =>
      Effect.gen(function*() {
        const race = yield* call("/v1/stats/genetique?race=Licorne")
        assert.strictEqual(race.status, 400)
        assert.strictEqual(race.headers["content-type"], PROBLEM)
        assert.strictEqual(race.json.parametre, "race")
        const range = yield* call("/v1/stats/genetique?annee_min=2021&annee_max=2020")
        assert.strictEqual(range.status, 400)
        assert.strictEqual(range.json.parametre, "annee_min")
        assert.strictEqual((yield* call("/v1/stats/genetique?race=")).status, 400)
        assert.strictEqual((yield* call("/v1/stats/genetique?annee_min=deux")).status, 400)
      }))

    it.effect("carries an ETag, answers 304 and HEAD", () =>
      Effect.gen(function*() {
        const path = "/v1/stats/genetique?race=Selle%20Francais"
        const reply = yield* call(path)
        const etag = reply.headers["etag"]
        assert.isString(etag)
        assert.strictEqual((yield* call(path, { headers: { "if-none-match": etag } })).status, 304)
        const head = yield* call(path, { method: "HEAD" })
        assert.strictEqual(head.status, 200)
        assert.strictEqual(head.text, "")
      }))
  })

  it.effect("the typed client calls both routes", () =>
    Effect.gen(function*() {
      const api = yield* makeApiClient("")
      const horse = yield* api.genetique.equide({ params: { id: X }, query: {} })
      assert.strictEqual(horse.consanguinite, 0.125)
      const breed = yield* api.genetique.stats({ query: { race: ["Selle Francais"], annee_min: 2020 } })
      assert.deepStrictEqual(breed.annees.map((a) => a.annee), [2020, 2021])
    }))
})
