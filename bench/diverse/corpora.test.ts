import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { words } from "../routes.ts"
import {
  buildCorpora,
  DIMENSIONS,
  FAMILY_NAMES,
  type Family,
  type FamilyName,
  FILTER_KINDS,
  type FilterKind,
  MAX_GENERATIONS,
  MAX_LIST_OFFSET,
  PROGENY_LIMITS,
  TRIS
} from "./corpora.ts"
import type { Sample } from "./sample.ts"

const word = fc.stringMatching(/^[A-ZÉÈ0-9]{1,8}$/)
const name = fc.array(word, { minLength: 1, maxLength: 4 }).chain((parts) =>
  fc.array(fc.constantFrom(" ", "’", "-", " D'"), { minLength: parts.length - 1, maxLength: parts.length - 1 }).map((separators) =>
    parts.map((part, i) => (i === 0 ? part : separators[i - 1] + part)).join("")
  )
)
const row = fc.record({
  id: fc.stringMatching(/^[A-Za-z0-9_-]{22}$/),
  nom: name,
  race: fc.constantFrom("Trotteur Francais", "Selle Francais", "Pur Sang"),
  sexe: fc.constantFrom("Femelle", "Male", "Hongre", "Indeter"),
  annee_naissance: fc.integer({ min: 1970, max: 2025 }),
  robe: fc.constantFrom("Bai", "Alezan", "Gris")
})
const sample: fc.Arbitrary<Sample> = fc.record({
  rows: fc.array(row, { minLength: 1, maxLength: 40 }),
  parents: fc.uniqueArray(
    fc.record({ id: fc.stringMatching(/^P[a-z]{5}$/), role: fc.constantFrom("pere" as const, "mere" as const), descendants: fc.integer({ min: 1, max: 500 }) }),
    { selector: (p) => p.id, minLength: 1, maxLength: 10 }
  ),
  statuses: fc.constant([["Pouliniere", 30], ["Etalon Actif", 5]] as const)
}).map(({ rows, parents, statuses }) => ({ records: rows.length, ids: [...new Set(rows.map((r) => r.id))], rows, parents, statuses }))
const options = fc.record({ seed: fc.integer({ min: 0, max: 1000 }), size: fc.integer({ min: 1, max: 120 }) })
/** Each run builds every corpus: a few dozen cover the shapes without a long test. */
const RUNS = { numRuns: 30 }

const family = (families: ReadonlyArray<Family>, name: FamilyName): ReadonlyArray<string> => {
  const found = families.find((f) => f.name === name)
  if (found === undefined) throw new Error(`no family ${name}`)
  return found.paths
}

const paramsOf = (path: string): URLSearchParams => new URL(path, "http://x").searchParams

/** The filter kinds a path carries (annee_min and annee_max are one kind). */
const kindsOf = (params: URLSearchParams): Array<FilterKind> =>
  FILTER_KINDS.filter((kind) => kind === "annees" ? params.has("annee_min") || params.has("annee_max") : params.has(kind))

const typedBy = (s: Sample): Set<string> => {
  const prefixes = new Set<string>()
  for (const { nom } of s.rows) {
    const typed = nom.toLowerCase()
    for (let end = 1; end <= typed.length; end++) if (/[\p{L}\p{N}]/u.test(typed[end - 1])) prefixes.add(typed.slice(0, end))
  }
  return prefixes
}

describe("buildCorpora", () => {
  it("gives the same paths for the same seed, and distinct paths within every family", () => {
    fc.assert(fc.property(sample, options, (s, o) => {
      const families = buildCorpora(s, o)
      assert.deepStrictEqual(buildCorpora(s, o), families)
      assert.deepStrictEqual(families.map((f) => f.name), [...FAMILY_NAMES])
      for (const f of families) {
        if (f.sameUri === true) assert.strictEqual(new Set(f.paths).size, 1, f.name)
        else assert.strictEqual(new Set(f.paths).size, f.paths.length, f.name)
      }
    }), RUNS)
  })

  it("asks every id of the pool once per id family, in a seeded order", () => {
    fc.assert(fc.property(sample, options, (s, o) => {
      const families = buildCorpora(s, o)
      const sorted = [...s.ids].sort()
      for (const name of ["record", "crawler"] as const) {
        assert.deepStrictEqual(family(families, name).map((p) => p.slice("/v1/equides/".length)).sort(), sorted)
      }
      for (const [name, prefix] of [["pedigree", "/v1"], ["explorer-pedigree", "/explorer"]] as const) {
        const pedigrees = family(families, name).map((p) => new RegExp(`^${prefix}/equides/([^/]+)/pedigree\\?generations=(\\d+)$`).exec(p))
        assert.deepStrictEqual(pedigrees.map((m) => m?.[1] ?? "").sort(), sorted, name)
        for (const m of pedigrees) assert.include([...Array(MAX_GENERATIONS).keys()].map((g) => String(g + 1)), m?.[2])
      }
      const idOf = (pattern: RegExp) => (path: string) => pattern.exec(path)?.[1] ?? ""
      assert.deepStrictEqual(family(families, "consanguinity-8").map(idOf(/^\/v1\/equides\/([^/]+)\/consanguinite$/)).sort(), sorted)
      assert.deepStrictEqual(family(families, "consanguinity-12").map(idOf(/^\/v1\/equides\/([^/]+)\/consanguinite\?generations=12$/)).sort(), sorted)
      assert.deepStrictEqual(family(families, "explorer-record").map(idOf(/^\/explorer\/equides\/([^/?]+)$/)).sort(), sorted)
    }), RUNS)
  })

  it("lists carry 1–3 filters of real values, any tri, an offset ≤ 1000 on the default page", () => {
    fc.assert(fc.property(sample, options, (s, o) => {
      const nameWords = new Set(s.rows.flatMap((r) => words(r.nom.toLowerCase())))
      const families = buildCorpora(s, o)
      const lists = [...family(families, "list"), ...family(families, "explorer-list")]
      for (const path of lists) {
        assert.match(path, /^\/(v1|explorer)\/equides\?/)
        const params = paramsOf(path)
        const kinds = kindsOf(params)
        assert.isAtLeast(kinds.length, 1, path)
        assert.isAtMost(kinds.length, 3, path)
        const allowed = ["race", "sexe", "robe", "annee_min", "annee_max", "avec_performances", "statut_reproducteur", "nom", "tri", "offset"]
        for (const key of params.keys()) assert.include(allowed, key, path)
        const tri = params.get("tri")
        if (tri !== null) assert.include(TRIS, tri)
        const offset = Number(params.get("offset") ?? 0)
        assert.isTrue(offset > 0 || !params.has("offset"))
        assert.isTrue(offset % 20 === 0 && offset <= MAX_LIST_OFFSET, path)
        for (const field of ["race", "sexe", "robe"] as const) {
          const value = params.get(field)
          if (value !== null) assert.isTrue(s.rows.some((r) => r[field] === value), path)
        }
        const nom = params.get("nom")
        if (nom !== null) {
          assert.isTrue(nom.length >= 1 && nom.length <= 3, path)
          assert.isTrue([...nameWords].some((w) => w.startsWith(nom)), path)
        }
        const [min, max] = [params.get("annee_min"), params.get("annee_max")]
        if (min !== null && max !== null) assert.isAtMost(Number(min), Number(max))
        const status = params.get("statut_reproducteur")
        if (status !== null) assert.include(["Pouliniere", "Etalon Actif"], status)
      }
    }), RUNS)
  })

  it("breakdowns carry a dimension and 0–2 filters", () => {
    fc.assert(fc.property(sample, options, (s, o) => {
      for (const path of family(buildCorpora(s, o), "breakdown")) {
        assert.match(path, /^\/v1\/stats\/repartition\?dimension=/)
        const params = paramsOf(path)
        assert.include(DIMENSIONS, params.get("dimension"))
        assert.isAtMost(kindsOf(params).length, 2, path)
      }
    }), RUNS)
  })

  it("autocomplete asks every prefix of the sample's names as typed, when the size allows", () => {
    fc.assert(fc.property(sample, fc.integer({ min: 0, max: 1000 }), (s, seed) => {
      const expected = typedBy(s)
      // 2000 is more than the prefixes of 40 names of at most 4 words of 8 letters.
      const asked = family(buildCorpora(s, { seed, size: 2000 }), "autocomplete").map((p) => paramsOf(p).get("q") ?? "")
      assert.deepStrictEqual(new Set(asked), expected)
      // A smaller corpus is a subset, cut at the size.
      const small = family(buildCorpora(s, { seed, size: 5 }), "autocomplete")
      assert.strictEqual(small.length, Math.min(5, expected.size))
      for (const path of small) assert.isTrue(expected.has(paramsOf(path).get("q") ?? ""))
    }), { numRuns: 10 }) // every run builds all the corpora at a size of 2000
  })

  it("progeny pages stay within each parent's offspring", () => {
    fc.assert(fc.property(sample, options, (s, o) => {
      const families = buildCorpora(s, o)
      for (const path of [...family(families, "progeny"), ...family(families, "explorer-progeny")]) {
        const match = /^\/(?:v1|explorer)\/equides\/([^/?]+)\/descendance(\?.*)?$/.exec(path)
        assert.isNotNull(match, path)
        const parent = s.parents.find((p) => p.id === match?.[1])
        assert.isDefined(parent, path)
        const params = paramsOf(path)
        const limit = Number(params.get("limite") ?? 50)
        const offset = Number(params.get("offset") ?? 0)
        assert.include(PROGENY_LIMITS, limit)
        assert.strictEqual(offset % limit, 0)
        assert.isBelow(offset, parent?.descendants ?? 0)
      }
    }), RUNS)
  })

  it("matings pair a sire met as a pere with a dam met as a mere, at the default depth or 12", () => {
    fc.assert(fc.property(sample, options, (s, o) => {
      const role = new Map(s.parents.map((p) => [p.id, p.role]))
      const matings = family(buildCorpora(s, o), "matings")
      const canPair = s.parents.some((p) => p.role === "pere") && s.parents.some((p) => p.role === "mere")
      assert.strictEqual(matings.length > 0, canPair)
      assert.isAtMost(matings.length, o.size)
      for (const path of matings) {
        assert.match(path, /^\/v1\/accouplements\?/)
        const params = paramsOf(path)
        assert.strictEqual(role.get(params.get("pere") ?? ""), "pere", path)
        assert.strictEqual(role.get(params.get("mere") ?? ""), "mere", path)
        assert.include([null, "12"], params.get("generations"), path)
        assert.deepStrictEqual([...params.keys()].filter((k) => k !== "generations"), ["pere", "mere"])
      }
    }), RUNS)
  })

  it("the statistics pages, which take no parameter, repeat their one URI", () => {
    fc.assert(fc.property(sample, options, (s, o) => {
      const families = buildCorpora(s, o)
      for (const [name, path] of [["stats", "/v1/stats"], ["explorer-stats", "/explorer/stats"]] as const) {
        const found = families.find((f) => f.name === name)
        assert.isTrue(found?.sameUri, name)
        assert.deepStrictEqual(new Set(found?.paths), new Set([path]))
        assert.strictEqual(found?.paths.length, o.size)
      }
      assert.deepStrictEqual(families.filter((f) => f.sameUri === true).map((f) => f.name), ["stats", "explorer-stats"])
    }), RUNS)
  })
})
