/**
 * Errors through the real pipeline: every one is an RFC 9457 problem (`application/problem+json`)
 * with a relative `type`, a stable French `title`, `status`, `detail`, and never a 5xx for bad input.
 */
import { assert, describe, layer } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import { EVERY_ROUTE, FAMILY, SIRE } from "./testing/family.ts"
import { call, type Reply, testServer } from "./testing/server.ts"

const PROBLEM = "application/problem+json"

const INVALID = { type: "/documentation#erreur-parametre-invalide", title: "Paramètre invalide", status: 400 }
const NOT_FOUND = { type: "/documentation#erreur-introuvable", title: "Ressource introuvable", status: 404 }

/** A problem reply: status, content type and the RFC 9457 members. */
const assertProblem = (reply: Reply, expected: { readonly type: string; readonly title: string; readonly status: number }) => {
  assert.strictEqual(reply.status, expected.status, reply.text)
  assert.strictEqual(reply.headers["content-type"], PROBLEM)
  assert.include(reply.json, expected)
  assert.isString(reply.json.detail)
  assert.isAbove(reply.json.detail.length, 0)
}

const invalidParameter = (path: string, parametre: string) =>
  Effect.gen(function*() {
    const reply = yield* call(path)
    assertProblem(reply, INVALID)
    assert.strictEqual(reply.json.parametre, parametre, path)
    return reply
  })


layer(testServer(fromRecords(FAMILY)))("errors", (it) => {
  describe("unknown query parameters", () => {
    it.effect("are refused on every route, naming the parameter", () =>
      Effect.gen(function*() {
        for (const route of EVERY_ROUTE) {
          const separator = route.includes("?") ? "&" : "?"
          yield* invalidParameter(`${route}${separator}inconnu=1`, "inconnu")
        }
      }))

    it.effect("get the nearest admitted name as a hint, then the admitted list", () =>
      Effect.gen(function*() {
        const limit = yield* invalidParameter("/v1/equides?limit=5", "limit")
        assert.match(limit.json.indice, /^paramètre le plus proche : «\u00a0limite\u00a0» ; paramètres admis : .*\blimite\b/)
        const typo = yield* invalidParameter(`/v1/equides/${SIRE}/pedigree?generation=3`, "generation")
        assert.include(typo.json.indice, "«\u00a0generations\u00a0»")
        const transposed = yield* invalidParameter("/v1/stats/repartition?dimnesion=robe", "dimnesion")
        assert.include(transposed.json.indice, "«\u00a0dimension\u00a0»")
        const far = yield* invalidParameter("/v1/search?q=a&zzzzzz=1", "zzzzzz")
        assert.notInclude(far.json.indice, "plus proche")
        assert.include(far.json.indice, "paramètres admis : q, limite, sexe")
      }))
  })

  describe("values", () => {
    it.effect("limite and offset of the list are refused out of bounds", () =>
      Effect.gen(function*() {
        yield* invalidParameter("/v1/equides?limite=0", "limite")
        yield* invalidParameter("/v1/equides?limite=101", "limite")
        yield* invalidParameter("/v1/equides?offset=10001", "offset")
        yield* invalidParameter("/v1/equides?offset=-1", "offset")
        const ok = yield* call("/v1/equides?limite=100&offset=10000")
        assert.strictEqual(ok.status, 200)
        assert.deepStrictEqual(ok.json.donnees, [])
      }))

    it.effect("non-integer values are refused, naming the parameter", () =>
      Effect.gen(function*() {
        for (const value of ["abc", "1.5", "1e-1", "+5", "05", "", " 5"]) {
          yield* invalidParameter(`/v1/equides?limite=${encodeURIComponent(value)}`, "limite")
          yield* invalidParameter(`/v1/equides/${SIRE}/descendance?limite=${encodeURIComponent(value)}`, "limite")
        }
        yield* invalidParameter(`/v1/equides/${SIRE}/descendance?offset=x`, "offset")
        yield* invalidParameter("/v1/equides?annee_min=deux-mille", "annee_min")
      }))

    it.effect("a single-valued parameter given twice is refused", () =>
      Effect.gen(function*() {
        const reply = yield* invalidParameter("/v1/equides?limite=5&limite=6", "limite")
        assert.include(reply.json.detail, "une fois")
      }))

    it.effect("a refused value of a repeatable parameter is named, whichever occurrence it is", () =>
      Effect.gen(function*() {
        for (const [path, parametre, value] of [
          ["/v1/equides?sexe=male&sexe=F%C3%A9mmelle", "sexe", "Fémmelle"],
          ["/v1/equides?sexe=jument&sexe=male", "sexe", "jument"],
          ["/v1/stats/repartition?dimension=robe&sexe=Hongre&sexe=Male&sexe=x", "sexe", "x"],
          ["/v1/search?q=jap&sexe=Femelle&sexe=jument", "sexe", "jument"],
          ["/v1/search?q=jap&sexe=Male,etalon", "sexe", "Male,etalon"],
          ["/v1/equides?annee_naissance=2000&annee_naissance=deux", "annee_naissance", "deux"],
          ["/explorer/equides?sexe=male&sexe=jument", "sexe", "jument"]
        ] as const) {
          const reply = yield* call(path)
          assert.strictEqual(reply.status, 400, path)
          assert.strictEqual(reply.json?.parametre ?? parametre, parametre, path)
          assert.include(reply.text, `«\u00a0${value}\u00a0»`, path)
          assert.notInclude(reply.text, "une fois", path)
        }
        const twice = yield* call("/v1/equides?sexe=male&sexe=F%C3%A9melle")
        assert.strictEqual(twice.status, 200, twice.text)
      }))

    it.effect("generations above 8 (or below 0) is refused", () =>
      Effect.gen(function*() {
        yield* invalidParameter(`/v1/equides/${SIRE}/pedigree?generations=9`, "generations")
        yield* invalidParameter(`/v1/equides/${SIRE}/pedigree?generations=-1`, "generations")
      }))

    it.effect("closed lists name the admitted values", () =>
      Effect.gen(function*() {
        const vue = yield* invalidParameter("/v1/equides?vue=tout", "vue")
        assert.strictEqual(vue.json.indice, "valeurs admises : resume, complet")
        const tri = yield* invalidParameter("/v1/equides?tri=age", "tri")
        assert.include(tri.json.indice, "-annee")
        yield* invalidParameter("/v1/stats/repartition?dimension=couleur", "dimension")
      }))

    it.effect("filter values not admitted by their reference list are refused", () =>
      Effect.gen(function*() {
        const race = yield* invalidParameter("/v1/equides?race=Selle%20Francai", "race")
        assert.include(race.json.indice, "Selle Francais")
        yield* invalidParameter("/v1/equides?race=", "race")
        yield* invalidParameter("/v1/equides?sexe=jument", "sexe")
        yield* invalidParameter("/v1/stats/repartition?robe=Vert", "robe")
        yield* invalidParameter("/v1/equides?avec_performances=peut-etre", "avec_performances")
      }))

    it.effect("an unknown referential dimension is a 400 listing the dimensions", () =>
      Effect.gen(function*() {
        const reply = yield* invalidParameter("/v1/referentiels/couleurs", "dimension")
        for (const dimension of ["races", "races_lien", "robes", "sexes", "statuts_reproducteur", "disciplines", "codes_indice", "annees_naissance"]) {
          assert.include(reply.json.indice, dimension)
        }
      }))

    it.effect("search without q, with an empty or blank q is a 400", () =>
      Effect.gen(function*() {
        yield* invalidParameter("/v1/search", "q")
        yield* invalidParameter("/v1/search?q=", "q")
        yield* invalidParameter("/v1/search?q=%20%20", "q")
        yield* invalidParameter("/v1/search?limite=5", "q")
      }))
  })

  describe("clamping", () => {
    it.effect("descendance brings limite back into 1..100 and a negative offset to 0", () =>
      Effect.gen(function*() {
        const high = yield* call(`/v1/equides/${SIRE}/descendance?limite=1000`)
        assert.strictEqual(high.status, 200)
        assert.strictEqual(high.json.limite, 100)
        const low = yield* call(`/v1/equides/${SIRE}/descendance?limite=0&offset=-5`)
        assert.include(low.json, { limite: 1, offset: 0 })
        assert.strictEqual(low.json.donnees.length, 1)
        const beyond = yield* call(`/v1/equides/${SIRE}/descendance?offset=50`)
        assert.include(beyond.json, { total: 3, offset: 50 })
        assert.deepStrictEqual(beyond.json.donnees, [])
      }))

    it.effect("search brings limite back into 1..100", () =>
      Effect.gen(function*() {
        assert.strictEqual((yield* call("/v1/search?q=j&limite=500")).json.limite, 100)
        const low = yield* call("/v1/search?q=j&limite=-3")
        assert.strictEqual(low.json.limite, 1)
        assert.strictEqual(low.json.resultats.length, 1)
      }))

    it.effect("repartition brings limite back into 1..1000", () =>
      Effect.gen(function*() {
        const low = yield* call("/v1/stats/repartition?dimension=robe&limite=0")
        assert.strictEqual(low.status, 200)
        assert.strictEqual(low.json.donnees.length, 1)
        const high = yield* call("/v1/stats/repartition?dimension=robe&limite=5000")
        assert.strictEqual(high.status, 200)
        assert.strictEqual(high.json.donnees.length, 4)
      }))
  })

  describe("not found and method not allowed", () => {
    it.effect("an unknown id and a malformed id get the same 404 body", () =>
      Effect.gen(function*() {
        const unknown = yield* call("/v1/equides/AAAAAAAAAAAAAAAAAAAAAA")
        assertProblem(unknown, NOT_FOUND)
        for (const id of ["zzz", "AAAAAAAAAAAAAAAAAAAAAB", "AAAAAAAAAAAAAAAAAAAAA%24", `${SIRE}x`]) {
          const malformed = yield* call(`/v1/equides/${id}`)
          assert.strictEqual(malformed.status, 404, id)
          assert.strictEqual(malformed.text, unknown.text, id)
        }
        for (const suffix of ["pedigree", "descendance"]) {
          const reply = yield* call(`/v1/equides/zzz/${suffix}`)
          assert.strictEqual(reply.text, unknown.text, suffix)
        }
      }))

    it.effect("an unknown route is a 404 problem", () =>
      Effect.gen(function*() {
        for (const path of ["/nowhere", "/v2/equides", "/v1/equides/a/b/c", "/v1/referentiels"]) {
          assertProblem(yield* call(path), NOT_FOUND)
        }
      }))

    it.effect("another method on a served path is a 405 problem with Allow", () =>
      Effect.gen(function*() {
        for (const method of ["POST", "PUT", "DELETE"] as const) {
          const reply = yield* call(`/v1/equides/${SIRE}`, { method })
          assertProblem(reply, { type: "/documentation#erreur-requete-invalide", title: "Requête invalide", status: 405 })
          assert.strictEqual(reply.headers["allow"], "GET, HEAD, OPTIONS")
        }
        assert.strictEqual((yield* call("/nowhere", { method: "POST" })).status, 404)
      }))
  })
})
