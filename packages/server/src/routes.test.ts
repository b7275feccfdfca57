/** Every route through the real pipeline (a Node server on port 0): status, content type, body shape. */
import { assert, describe, layer } from "@effect/vitest"
import {
  Decouverte,
  Descendance,
  Equide,
  fromRecords,
  Meta,
  PageEquidesComplets,
  PageResumes,
  Pedigree,
  Referentiel,
  Repartition,
  Sante,
  Stats,
  Suggestions
} from "@equides/domain"
import * as Effect from "effect/Effect"
import { DAM, DAUGHTER, EVERY_ROUTE, FAMILY, GELDING, shape, SIRE, SON } from "./testing/family.ts"
import { call, testServer } from "./testing/server.ts"
import { SPEC_JSON as JSON_UTF8 } from "./testing/spec.ts"



layer(testServer(fromRecords(FAMILY)))("routes", (it) => {
  describe("service", () => {
    it.effect("GET / serves Decouverte as JSON by default, to */* and to application/json", () =>
      Effect.gen(function*() {
        for (const accept of [undefined, "*/*", "application/json", "application/json, text/html;q=0.9"]) {
          const reply = yield* call("/", accept === undefined ? {} : { headers: { accept } })
          assert.strictEqual(reply.status, 200)
          assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
          const body = shape(Decouverte, reply.json)
          assert.strictEqual(body.lignes, FAMILY.length)
          assert.strictEqual(body.openapi, "/openapi.json")
          assert.strictEqual(body.documentation, "/documentation")
        }
      }))

    it.effect("GET / serves a page for people when Accept prefers text/html", () =>
      Effect.gen(function*() {
        const reply = yield* call("/", {
          headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }
        })
        assert.strictEqual(reply.status, 200)
        assert.match(reply.headers["content-type"], /^text\/html/)
        assert.include(reply.text, "href=\"/documentation\"")
        assert.include(reply.text, "href=\"/openapi.json\"")
        assert.include(reply.headers["vary"], "Accept")
      }))

    it.effect("/healthz and /readyz answer 200 Sante ok with the rows loaded", () =>
      Effect.gen(function*() {
        for (const path of ["/healthz", "/readyz"]) {
          const reply = yield* call(path)
          assert.strictEqual(reply.status, 200)
          assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
          assert.deepStrictEqual(shape(Sante, reply.json), { statut: "ok", lignes: FAMILY.length, version: "1.1.1" })
        }
      }))

    it.effect("/openapi.json is an OpenAPI 3.1 object", () =>
      Effect.gen(function*() {
        const reply = yield* call("/openapi.json")
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
        assert.strictEqual(reply.json.openapi, "3.1.0")
        assert.strictEqual(reply.json.info.version, "1.1.1")
      }))

    it.effect("/v1/meta serves Meta", () =>
      Effect.gen(function*() {
        const reply = yield* call("/v1/meta")
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
        assert.strictEqual(shape(Meta, reply.json).jeu_de_donnees.lignes, FAMILY.length)
      }))

    it.effect("/documentation has one anchored section per problem type", () =>
      Effect.gen(function*() {
        const reply = yield* call("/documentation")
        assert.strictEqual(reply.status, 200)
        assert.match(reply.headers["content-type"], /^text\/html/)
        for (const anchor of ["parametre-invalide", "requete-invalide", "introuvable", "trop-de-requetes", "service-surcharge"]) {
          assert.include(reply.text, `id="erreur-${anchor}"`)
        }
      }))
  })

  describe("equides", () => {
    it.effect("the list serves Resume rows by default, with pagination links keeping the request's parameters", () =>
      Effect.gen(function*() {
        const reply = yield* call("/v1/equides?race=selle%20francais&limite=2&offset=2&tri=nom")
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
        const page = shape(PageResumes, reply.json)
        assert.strictEqual(page.donnees.length, 2)
        assert.strictEqual(page.pagination.total, 6)
        assert.strictEqual(page.pagination.suivant, "/v1/equides?race=selle%20francais&limite=2&offset=4&tri=nom")
        assert.strictEqual(page.pagination.precedent, "/v1/equides?race=selle%20francais&limite=2&offset=0&tri=nom")
      }))

    it.effect("vue=complet serves full Equide rows; defaults are limite 20, offset 0", () =>
      Effect.gen(function*() {
        const reply = yield* call("/v1/equides?vue=complet")
        assert.strictEqual(reply.status, 200)
        const page = shape(PageEquidesComplets, reply.json)
        assert.strictEqual(page.donnees.length, FAMILY.length)
        assert.include(page.pagination, { total: FAMILY.length, limite: 20, offset: 0, suivant: null, precedent: null })
      }))

    it.effect("filters of one dimension combine with OR, of different dimensions with AND", () =>
      Effect.gen(function*() {
        const or = yield* call("/v1/equides?sexe=Male&sexe=hongre")
        assert.strictEqual(or.json.pagination.total, 5)
        const comma = yield* call("/v1/equides?sexe=Male,Hongre&race=Trotteur%20Francais")
        assert.strictEqual(comma.json.pagination.total, 1)
      }))

    it.effect("one equid serves Equide", () =>
      Effect.gen(function*() {
        const reply = yield* call(`/v1/equides/${SON}`)
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
        const body = shape(Equide, reply.json)
        assert.strictEqual(body.id, SON)
        assert.strictEqual(body.pere?.id, SIRE)
        assert.strictEqual(body.mere?.id, DAM)
      }))

    it.effect("a dangling dam is a Reference without id and without record", () =>
      Effect.gen(function*() {
        const body = shape(Equide, (yield* call(`/v1/equides/${GELDING}`)).json)
        assert.deepStrictEqual(body.mere, { nom: "DISPARUE", race: "SF", fiche_disponible: false })
      }))

    it.effect("the pedigree is 4 generations deep by default, `generations` sets it", () =>
      Effect.gen(function*() {
        const reply = yield* call(`/v1/equides/${SON}/pedigree`)
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
        const body = shape(Pedigree, reply.json)
        assert.include(body, { generations: 4, noeuds: 3, noeuds_theoriques: 31 })
        const deep = shape(Pedigree, (yield* call(`/v1/equides/${SON}/pedigree?generations=8`)).json)
        assert.strictEqual(deep.noeuds_theoriques, 511)
        const root = shape(Pedigree, (yield* call(`/v1/equides/${SON}/pedigree?generations=0`)).json)
        assert.strictEqual(root.noeuds, 1)
      }))

    it.effect("the descendance lists direct offspring", () =>
      Effect.gen(function*() {
        const reply = yield* call(`/v1/equides/${SIRE}/descendance`)
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
        const body = shape(Descendance, reply.json)
        assert.include(body, { total: 3, limite: 50, offset: 0 })
        assert.deepStrictEqual(body.donnees.map((p) => p.id), [SON, GELDING, DAUGHTER])
      }))
  })

  describe("search, referentiels, stats", () => {
    it.effect("/v1/search serves Suggestions, the query echoed as received", () =>
      Effect.gen(function*() {
        const reply = yield* call("/v1/search?q=Jap")
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
        const body = shape(Suggestions, reply.json)
        assert.strictEqual(body.q, "Jap")
        assert.strictEqual(body.limite, 10)
        assert.deepStrictEqual(body.resultats.map((r) => r.id).sort(), [SIRE, GELDING].sort())
      }))

    it.effect("/v1/search?sexe keeps the suggestions of those sexes, written as the list's filter is (case, accents, repeated, commas)", () =>
      Effect.gen(function*() {
        const ids = (reply: { readonly json: unknown }) => shape(Suggestions, reply.json).resultats.map((r) => r.id).sort()
        assert.deepStrictEqual(ids(yield* call("/v1/search?q=Jap&sexe=hongre")), [GELDING])
        assert.deepStrictEqual(ids(yield* call("/v1/search?q=Jap&sexe=M%C3%82LE")), [SIRE])
        assert.deepStrictEqual(ids(yield* call("/v1/search?q=Jap&sexe=Male&sexe=Hongre")), [SIRE, GELDING].sort())
        assert.deepStrictEqual(ids(yield* call("/v1/search?q=Jap&sexe=Male,Hongre")), [SIRE, GELDING].sort())
        assert.deepStrictEqual(ids(yield* call("/v1/search?q=Jap&sexe=Femelle")), [])
        assert.deepStrictEqual(ids(yield* call("/v1/search?q=%C3%A9clair&sexe=F%C3%A9melle")), [DAUGHTER])
      }))

    it.effect("each referential serves Referentiel", () =>
      Effect.gen(function*() {
        for (
          const dimension of [
            "races",
            "races_lien",
            "robes",
            "sexes",
            "statuts_reproducteur",
            "disciplines",
            "codes_indice",
            "annees_naissance"
          ]
        ) {
          const reply = yield* call(`/v1/referentiels/${dimension}`)
          assert.strictEqual(reply.status, 200, dimension)
          assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
          assert.strictEqual(shape(Referentiel, reply.json).dimension, dimension)
        }
      }))

    it.effect("/v1/stats serves Stats", () =>
      Effect.gen(function*() {
        const reply = yield* call("/v1/stats")
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
        assert.strictEqual(shape(Stats, reply.json).total, FAMILY.length)
      }))

    it.effect("/v1/stats/repartition serves Repartition of the filtered selection (race by default)", () =>
      Effect.gen(function*() {
        const reply = yield* call("/v1/stats/repartition?sexe=Male")
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
        const body = shape(Repartition, reply.json)
        assert.include(body, { dimension: "race", effectif_filtre: 4 })
        const robes = shape(Repartition, (yield* call("/v1/stats/repartition?dimension=robe")).json)
        assert.deepStrictEqual(robes.donnees[0], { valeur: "Bai", nombre: 4 })
      }))
  })

  describe("HEAD", () => {
    it.effect("every route answers HEAD with the headers of GET and no body", () =>
      Effect.gen(function*() {
        for (
          const path of [
            ...EVERY_ROUTE,
            "/v1/equides?limit=1",
            "/nowhere"
          ]
        ) {
          const get = yield* call(path)
          const head = yield* call(path, { method: "HEAD" })
          assert.strictEqual(head.status, get.status, path)
          assert.strictEqual(head.text, "", path)
          assert.strictEqual(head.headers["content-type"], get.headers["content-type"], path)
          assert.strictEqual(head.headers["content-length"], get.headers["content-length"], path)
        }
      }))
  })
})
