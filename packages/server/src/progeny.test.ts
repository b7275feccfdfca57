/**
 * The offspring statistics and the ranking of parents through the real pipeline: bodies, the
 * unknown id, refused parameters, validators and HEAD, the typed client; and on a pool of query
 * workers, the same bytes as in the server's thread.
 */
import { assert, layer } from "@effect/vitest"
import { fromRecords, makeApiClient, Reproducteurs, type SourceRecord, StatistiquesDescendance } from "@equides/domain"
import { idN } from "@equides/domain/testing"
import * as Effect from "effect/Effect"
import { shape } from "./testing/family.ts"
import { call, testServer } from "./testing/server.ts"

const SIRE = idN(1)
const SECOND = idN(2)
const iso = (valeur: string, annee?: number) => [{ discipline: "SAUT D'OBSTACLES", indices: [{ code: "ISO", valeur, ...(annee === undefined ? {} : { annee }) }] }]
const foal = (n: number, pere: string, nom: string, annee: number | undefined, valeur: string): SourceRecord => ({
  id: idN(n),
  nom,
  race: "Selle Francais",
  sexe: n % 2 === 0 ? "Femelle" : "Male",
  ...(annee === undefined ? {} : { annee_naissance: annee }),
  pere: { id: pere, race: "SF" },
  performances: iso(valeur, 2020)
})

const RECORDS: ReadonlyArray<SourceRecord> = [
  { id: SIRE, nom: "QUIDAM", race: "Selle Francais", sexe: "Male", annee_naissance: 1990 },
  { id: SECOND, nom: "BALOUBET", race: "Selle Francais", sexe: "Male", annee_naissance: 1991 },
  foal(10, SIRE, "ALPHA", 2010, "+120"),
  foal(11, SIRE, "BRAVO", 2011, "130"),
  foal(12, SIRE, "CHARLIE", undefined, "110"),
  foal(13, SECOND, "DELTA", 2012, "140"),
  foal(14, SECOND, "ECHO", 2012, "illisible")
]

const STATS = `/v1/equides/${SIRE}/descendance/statistiques`
const RANKING = "/v1/stats/reproducteurs?code=ISO&produits_min=1"

layer(testServer(fromRecords(RECORDS)))("progeny routes", (it) => {
  it.effect("statistiques: counts, years, breeds and the code's summary", () =>
    Effect.gen(function*() {
      const reply = yield* call(STATS)
      assert.strictEqual(reply.status, 200)
      const body = shape(StatistiquesDescendance, reply.json)
      assert.deepStrictEqual(body.parent, { id: SIRE, nom: "QUIDAM", race: "Selle Francais", fiche_disponible: true })
      assert.strictEqual(body.produits, 3)
      assert.deepStrictEqual(body.par_annee, [{ annee: 2010, nombre: 1 }, { annee: 2011, nombre: 1 }])
      assert.strictEqual(body.sans_annee, 1)
      assert.deepStrictEqual(body.par_sexe, [{ valeur: "Femelle", nombre: 2 }, { valeur: "Male", nombre: 1 }])
      assert.strictEqual(body.avec_indices, 3)
      assert.strictEqual(body.indices.length, 1)
      assert.deepStrictEqual(
        { ...body.indices[0], meilleurs: body.indices[0].meilleurs.map((m) => [m.nom, m.valeur, m.annee]) },
        {
          code: "ISO",
          discipline: "SAUT D'OBSTACLES",
          produits: 3,
          moyenne: 120,
          mediane: 120,
          maximum: 130,
          meilleurs: [["BRAVO", 130, 2020], ["ALPHA", 120, 2020], ["CHARLIE", 110, 2020]]
        }
      )
    }))

  it.effect("reproducteurs: parents by mean, an unreadable value left out", () =>
    Effect.gen(function*() {
      const reply = yield* call(RANKING)
      assert.strictEqual(reply.status, 200)
      const body = shape(Reproducteurs, reply.json)
      assert.deepStrictEqual(body.donnees.map((d) => [d.parent.nom, d.produits, d.moyenne, d.mediane, d.maximum]), [
        ["BALOUBET", 1, 140, 140, 140],
        ["QUIDAM", 3, 120, 120, 130]
      ])
      assert.deepStrictEqual(body.pagination, { total: 2, limite: 20, offset: 0, suivant: null, precedent: null })
      const page = shape(Reproducteurs, (yield* call(`${RANKING}&limite=1&annee_max=2011`)).json)
      assert.deepStrictEqual(page.donnees.map((d) => [d.parent.nom, d.produits]), [["QUIDAM", 2]])
      assert.strictEqual(page.pagination.total, 1)
    }))

  it.effect("an unknown id is the 404 of every id route; refused parameters are 400s naming them", () =>
    Effect.gen(function*() {
      const missing = yield* call("/v1/equides/AAAAAAAAAAAAAAAAAAAAAA/descendance/statistiques")
      const other = yield* call("/v1/equides/AAAAAAAAAAAAAAAAAAAAAA")
      assert.strictEqual(missing.status, 404)
      assert.strictEqual(missing.text, other.text)
      assert.strictEqual((yield* call("/v1/equides/nope/descendance/statistiques")).status, 404)
      const refusals: ReadonlyArray<readonly [string, string]> = [
        ["/v1/stats/reproducteurs", "code"],
        ["/v1/stats/reproducteurs?code=", "code"],
        ["/v1/stats/reproducteurs?code=ISX", "code"],
        ["/v1/stats/reproducteurs?code=ISO&produits_min=0", "produits_min"],
        ["/v1/stats/reproducteurs?code=ISO&produits_min=1001", "produits_min"],
        ["/v1/stats/reproducteurs?code=ISO&sexe=Hongre", "sexe"],
        ["/v1/stats/reproducteurs?code=ISO&race=Licorne", "race"],
        ["/v1/stats/reproducteurs?code=ISO&limite=101", "limite"],
        ["/v1/stats/reproducteurs?code=ISO&annee_min=x", "annee_min"],
        [`${STATS}?limite=5`, "limite"]
      ]
      for (const [path, parametre] of refusals) {
        const reply = yield* call(path)
        assert.strictEqual(reply.status, 400, path)
        assert.strictEqual(reply.headers["content-type"], "application/problem+json")
        assert.strictEqual(reply.json.parametre, parametre, path)
      }
      const hinted = yield* call("/v1/stats/reproducteurs?code=ISX")
      assert.include(hinted.json.indice, "«\u00a0ISO\u00a0»")
      assert.include(hinted.json.indice, "/v1/referentiels/codes_indice")
      assert.strictEqual((yield* call("/v1/stats/reproducteurs?code=ISO&produits_min=1000")).status, 200)
    }))

  it.effect("ETag, 304 and HEAD", () =>
    Effect.gen(function*() {
      for (const path of [STATS, RANKING]) {
        const first = yield* call(path)
        const etag = first.headers["etag"]
        assert.isString(etag)
        const revalidated = yield* call(path, { headers: { "if-none-match": etag } })
        assert.strictEqual(revalidated.status, 304, path)
        assert.strictEqual(revalidated.text, "")
        const head = yield* call(path, { method: "HEAD" })
        assert.strictEqual(head.status, 200)
        assert.strictEqual(head.text, "")
        assert.strictEqual(head.headers["content-length"], first.headers["content-length"])
      }
    }))

  it.effect("the explorer: a parent's record shows its offspring, /explorer/reproducteurs ranks parents", () =>
    Effect.gen(function*() {
      const record = (yield* call(`/explorer/equides/${SIRE}`)).text
      assert.include(record, "<h2>Produits</h2>")
      assert.include(record, "Produits par année de naissance")
      assert.include(record, `href="/explorer/reproducteurs?code=ISO"`)
      // The best offspring, linked, with their values.
      assert.match(record, new RegExp(`<a href="/explorer/equides/${idN(11)}">BRAVO</a> \\(130\\)`))
      assert.include(record, `href="/v1/equides/${SIRE}/descendance/statistiques"`)
      // A horse without offspring shows no such section.
      assert.notInclude((yield* call(`/explorer/equides/${idN(10)}`)).text, "<h2>Produits</h2>")

      const form = yield* call("/explorer/reproducteurs")
      assert.strictEqual(form.status, 200)
      assert.include(form.text, "Choisir un code d'indice")
      const ranking = yield* call("/explorer/reproducteurs?code=ISO&sexe=Male&race=&produits_min=1&annee_min=&annee_max=")
      assert.strictEqual(ranking.status, 200)
      assert.include(ranking.text, "<strong>2</strong> reproducteurs classés pour l'indice ISO")
      assert.isBelow(ranking.text.indexOf(`/explorer/equides/${SECOND}`), ranking.text.indexOf(`/explorer/equides/${SIRE}"`))
      const refused = yield* call("/explorer/reproducteurs?code=ISX")
      assert.strictEqual(refused.status, 400)
      assert.include(refused.text, "Paramètre refusé")
    }))

  it.effect("/documentation defines the values and shows both routes with a real answer", () =>
    Effect.gen(function*() {
      const page = (yield* call("/documentation")).text
      assert.include(page, "id=\"descendance-statistiques\"")
      assert.include(page, "<h3>GET /v1/equides/{id}/descendance/statistiques</h3>")
      assert.include(page, "<h3>GET /v1/stats/reproducteurs</h3>")
      assert.include(page, "/v1/stats/reproducteurs?code=ISO&amp;produits_min=1&amp;limite=3")
    }))

  it.effect("the typed client calls both routes and decodes their problems", () =>
    Effect.gen(function*() {
      const api = yield* makeApiClient("")
      const statistiques = yield* api.equides.descendanceStatistiques({ params: { id: SIRE }, query: {} })
      assert.strictEqual(statistiques.indices[0]?.moyenne, 120)
      const ranking = yield* api.stats.reproducteurs({ query: { code: "iso", produits_min: 1, sexe: "Male" } })
      assert.deepStrictEqual(ranking.donnees.map((d) => d.parent.id), [SECOND, SIRE])
      const missing = yield* api.equides.descendanceStatistiques({ params: { id: "nope" }, query: {} }).pipe(Effect.flip)
      assert.strictEqual(missing._tag, "Introuvable")
      const refused = yield* api.stats.reproducteurs({ query: { code: "XYZ" } }).pipe(Effect.flip)
      assert.strictEqual(refused._tag, "ParametreInvalide")
      const early = yield* api.stats.reproducteurs({ query: { code: "ISO", produits_min: 0 } }).pipe(Effect.flip)
      assert.strictEqual(early._tag, "SchemaError")
    }))
})

layer(testServer(fromRecords(RECORDS), { settings: { workers: 1 } }), { timeout: 30_000 })("progeny routes on a query worker", (it) => {
  it.effect("answer the same bytes as in the server's thread", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* call(STATS)).json.indices[0].moyenne, 120)
      assert.strictEqual((yield* call(RANKING)).json.pagination.total, 2)
      assert.strictEqual((yield* call("/v1/stats/reproducteurs?code=ISX")).json.parametre, "code")
    }))
})
