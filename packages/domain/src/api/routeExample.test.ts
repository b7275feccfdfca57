import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { build } from "../query/record.fixtures.ts"
import { idN } from "../testing/ids.ts"
import { Api } from "./Api.ts"
import { queryPairs } from "./answers.ts"
import { servedPath } from "./discoveryPlace.ts"
import { endpointsOf } from "./endpoints.ts"
import { type ExampleSubject, rehearsedExamples, routeExamples, warmUpExecutions } from "./routeExample.ts"
import { executionFamily, NotWarmed, OnWorkers } from "./workers.ts"

const data = build([{ id: idN(1), nom: "Alpha" }, { id: idN(2), nom: "Beta" }, { id: idN(3), nom: "Gamma", sexe: "Femelle" }])
const subject: ExampleSubject = {
  data,
  row: 0,
  id: idN(1),
  words: ["alpha"],
  race: "Selle Français",
  indice: "ISO",
  mating: { pere: 1, mere: 2 },
  unheldBreed: () => 2,
  discovery: () => ({ nom: "discovery" }),
  openapi: () => ({ openapi: "3.1.0" })
}

describe("routeExamples", () => {
  const examples = routeExamples(endpointsOf(Api), subject)

  it("gives every route of the Api its example, in the documentation page's order", () => {
    expect(examples.map((example) => example.route)).toEqual([
      "/",
      "/healthz",
      "/readyz",
      "/openapi.json",
      "/v1/meta",
      "/v1/equides",
      "/v1/equides/{id}",
      "/v1/equides/{id}/pedigree",
      "/v1/equides/{id}/descendance",
      "/v1/equides/{id}/descendance/statistiques",
      "/v1/equides/{id}/consanguinite",
      "/v1/equides/{id}/genetique",
      "/v1/accouplements",
      "/v1/accouplements/etalons",
      "/v1/search",
      "/v1/referentiels/{dimension}",
      "/v1/stats",
      "/v1/stats/repartition",
      "/v1/stats/genetique",
      "/v1/stats/reproducteurs"
    ])
    // An export's answer is a file, not JSON: the documentation's own section on exports shows it.
    const documented = endpointsOf(Api).map((endpoint) => servedPath(endpoint.path)).filter((path) => !path.startsWith("/v1/export/"))
    expect(new Set(examples.map((example) => example.route))).toEqual(new Set(documented))
  })

  it("draws its requests from the subject, a whole-pedigree route as an execution", () => {
    const byRoute = new Map(examples.map((example) => [example.route, example]))
    expect(byRoute.get("/v1/equides")?.url).toBe("/v1/equides?race=Selle%20Fran%C3%A7ais&tri=-annee&limite=3")
    expect(byRoute.get("/v1/accouplements")?.url).toBe(`/v1/accouplements?pere=${idN(2)}&mere=${idN(3)}`)
    expect(byRoute.get("/v1/stats/reproducteurs")?.url).toBe("/v1/stats/reproducteurs?code=ISO&produits_min=1&limite=3")
    const fiche = byRoute.get("/v1/equides/{id}")
    expect(fiche !== undefined && "answer" in fiche ? (fiche.answer() as { id: string }).id : undefined).toBe(idN(1))
    const root = byRoute.get("/")
    expect(root !== undefined && "answer" in root ? root.answer() : undefined).toEqual({ nom: "discovery" })
    expect(byRoute.get("/v1/equides/{id}/genetique")).toMatchObject({ execution: { endpoint: "genetique", request: { kind: "equide", row: 0 } } })
  })

  it("leaves out what the data cannot show: no mating, no name word, no index code", () => {
    const routes = routeExamples(endpointsOf(Api), { ...subject, words: [], mating: undefined, indice: undefined }).map((example) => example.route)
    expect(routes).not.toContain("/v1/accouplements")
    expect(routes).not.toContain("/v1/search")
    expect(routes).not.toContain("/v1/stats/reproducteurs")
    expect(routes).toHaveLength(16)
  })
})

describe("rehearsedExamples", () => {
  it("are the examples but those of routes whose first use is left to the first request (a breed's genetics)", () => {
    const rehearsed = rehearsedExamples(endpointsOf(Api), subject)
    const all = routeExamples(endpointsOf(Api), subject)
    const urls = new Set(rehearsed.map((example) => example.url))
    expect(all.filter((example) => !urls.has(example.url)).map((example) => example.route)).toEqual(["/v1/stats/genetique"])
    expect(rehearsed).toHaveLength(all.length - 1)
    expect(rehearsed.map((example) => example.url)).toContain(`/v1/equides/${idN(1)}/genetique`)
  })
})

describe("warmUpExecutions", () => {
  it("runs every route on the workers but those that say why not, each as executions of its own family", () => {
    const warmed = warmUpExecutions(endpointsOf(Api), subject)
    const expected = endpointsOf(Api).flatMap((endpoint) => {
      const family = Context.get(endpoint.annotations, OnWorkers)
      return family === undefined || Context.get(endpoint.annotations, NotWarmed) !== undefined ? [] : [[servedPath(endpoint.path), family] as const]
    })
    expect(new Set(warmed.map(({ route }) => route))).toEqual(new Set(expected.map(([route]) => route)))
    const families = new Map(expected)
    for (const { route, execution } of warmed) expect(executionFamily(execution), route).toBe(families.get(route))
    // The example first, then the other paths its definition names: the list in three orders, two views.
    expect(warmed.filter(({ route }) => route === "/v1/equides").map(({ execution }) => execution.endpoint === "list" ? execution.url : "")).toEqual([
      "/v1/equides?race=Selle%20Fran%C3%A7ais&tri=-annee&limite=3",
      "/v1/equides?sexe=Femelle&annee_min=2000&tri=nom&vue=complet",
      "/v1/equides?nom=al&tri=-nom"
    ])
  })

  it("warms /v1/stats/genetique for the whole extract only: its plain URI, not the example's breed", () => {
    const warmed = warmUpExecutions(endpointsOf(Api), subject).filter(({ route }) => route === "/v1/stats/genetique")
    expect(subject.race).toBeDefined()
    expect(warmed.map(({ execution }) => execution)).toEqual([{ endpoint: "genetique", request: { kind: "stats", query: {} } }])
  })

  it("warms /v1/equides/{id}/genetique for the subject and for a horse of a breed the Dataset does not hold", () => {
    const warmed = warmUpExecutions(endpointsOf(Api), subject).filter(({ route }) => route === "/v1/equides/{id}/genetique")
    expect(warmed.map(({ execution }) => execution)).toEqual([
      { endpoint: "genetique", request: { kind: "equide", row: 0 } },
      { endpoint: "genetique", request: { kind: "equide", row: 2 } }
    ])
    const allHeld = warmUpExecutions(endpointsOf(Api), { ...subject, unheldBreed: () => undefined }).filter(({ route }) => route === "/v1/equides/{id}/genetique")
    expect(allHeld).toHaveLength(1)
  })

  it("warms the search on a first letter and on a whole word then the start of another, two letters and one (the multi-word paths)", () => {
    const named = { ...subject, data: build([{ id: idN(1), nom: "HOLLYWOOD DU FIEF" }, { id: idN(2), nom: "Beta" }, { id: idN(3), nom: "Gamma", sexe: "Femelle" }]), row: 0, words: ["hollywood", "du", "fief"] }
    const warmed = warmUpExecutions(endpointsOf(Api), named).filter(({ route }) => route === "/v1/search")
    expect(warmed.map(({ execution }) => ("query" in execution && "q" in execution.query ? execution.query.q : undefined))).toEqual([
      "hollywood",
      "h",
      "hollywood du",
      "hollywood d"
    ])
  })

  it("warms the ranking of parents at its plain URI (the route's default page), the example's short page and a year bound", () => {
    const warmed = warmUpExecutions(endpointsOf(Api), subject).filter(({ route }) => route === "/v1/stats/reproducteurs")
    expect(warmed.map(({ execution }) => "url" in execution ? execution.url : "")).toEqual([
      "/v1/stats/reproducteurs?code=ISO&produits_min=1&limite=3",
      "/v1/stats/reproducteurs?code=ISO",
      "/v1/stats/reproducteurs?code=ISO&annee_min=2000"
    ])
  })

  it("gives each execution its query as the route's handler receives a request's: its URL's values, keys in the route's order", () => {
    const endpoints = new Map(endpointsOf(Api).map((endpoint) => [servedPath(endpoint.path), endpoint]))
    const checked = warmUpExecutions(endpointsOf(Api), subject).flatMap(({ route, execution }) => {
      const schema = endpoints.get(route)?.query
      if (!("query" in execution) || schema === undefined) return []
      // HttpApi's decoding writes a query's keys in the order the route defines its parameters.
      const order = SchemaAST.isObjects(schema.ast) ? schema.ast.propertySignatures.map(({ name }) => String(name)) : []
      const keys = Object.keys(execution.query)
      expect(keys, route).toEqual(order.filter((name) => keys.includes(name)))
      if (!("url" in execution)) return [route]
      // As the router hands a query to HttpApi: one value, or the values of a repeated name.
      const params: Record<string, string | Array<string>> = {}
      for (const [name, value] of queryPairs(execution.url)) {
        const seen = params[name]
        params[name] = seen === undefined ? value : [...(typeof seen === "string" ? [seen] : seen), value]
      }
      expect(execution.query, execution.url).toEqual(Schema.decodeUnknownSync(Schema.toCodecArrayFromSingle(schema) as unknown as Schema.Codec<unknown, unknown>)(params))
      return [execution.url]
    })
    // The list's three, the stallions for a mare, the search (its example, a first letter: the subject's name is one word), the breakdowns
    // (three), the ranking of parents (its example, its plain URI, with years).
    expect(checked).toHaveLength(12)
  })
})
