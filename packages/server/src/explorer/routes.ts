/**
 * The explorer's routes. Every page renders what the API's query functions return for the same
 * request: records, pedigrees and progeny directly (bounded lookups), lists and breakdowns through
 * the `Executor` (`execution/Executor.ts`: on the query workers when there are, the same function
 * as `/v1/equides` and `/v1/stats/repartition`, the same bytes, decoded here). Registered with
 * admission (`paths.ts`), so ETag, 304, compression, quota and the response cache apply.
 */
import {
  Dataset,
  descendanceQuery,
  type Execution,
  FILTER_PARAMETERS,
  findEquide,
  Introuvable,
  listQuery,
  meta,
  NoQuery,
  PageResumes,
  ParametreInvalide,
  pedigree,
  pedigreeQuery,
  referential,
  Repartition,
  type RepartitionQuery,
  Reproducteurs,
  reproducteursQuery,
  stats,
  StatistiquesDescendance
} from "@equides/domain"
import { Effect, Result, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Executor } from "../execution/Executor.ts"
import { equideNotFound } from "../handlers/query.ts"
import { fromInvalidParameter, problemResponse } from "../problems.ts"
import { assetNamed, FAVICON_ICO } from "./assets.ts"
import { errorPage } from "./errorPage.ts"
import { homePage } from "./home.ts"
import type { Html } from "./html.ts"
import { FACET_DIMENSIONS, listPage, type ListOutcome, type Suggestions } from "./listPage.ts"
import {
  EXPLORER_ASSET,
  EXPLORER_HOME,
  EXPLORER_LIST,
  EXPLORER_PEDIGREE,
  EXPLORER_PROGENY,
  EXPLORER_RECORD,
  EXPLORER_SIRES,
  EXPLORER_STATS,
  FAVICON,
  type Pairs,
  queryString
} from "./paths.ts"
import { pedigreePage } from "./pedigreePage.ts"
import { progenyPage } from "./progenyPage.ts"
import { decodeQuery, filledPairs } from "./query.ts"
import { recordPage } from "./recordPage.ts"
import { reproducteursPage, type SiresOutcome } from "./reproducteursPage.ts"
import { type Breakdown, statsPage } from "./statsPage.ts"
import { parentLinks, progenyView, recordView } from "./views.ts"

const HTML = "text/html; charset=utf-8"

const respond = (page: Html, status = 200) => HttpServerResponse.text(page.markup, { status, contentType: HTML })

/** Facet and chart sizes: the most numerous values only. */
const FACET_LIMITE = 10
const DATALIST_LIMITE = 100

/** The list's parameters on a page: those of `/v1/equides` but `vue` (a page shows summaries). */
const { vue: _vue, ...listFields } = listQuery.fields
const LIST_SCHEMA = Schema.Struct(listFields)
const LIST_DOCS = listQuery.docs.filter((doc) => doc.name !== "vue")
const PEDIGREE_SCHEMA = Schema.Struct(pedigreeQuery.fields)
const PROGENY_SCHEMA = Schema.Struct(descendanceQuery.fields)

const utf8 = new TextDecoder()
const decodePage = Schema.decodeUnknownSync(PageResumes)
const decodeRepartition = Schema.decodeUnknownSync(Repartition)
const decodeStatistiques = Schema.decodeUnknownSync(StatistiquesDescendance)
const decodeReproducteurs = Schema.decodeUnknownSync(Reproducteurs)
const SIRES_SCHEMA = Schema.Struct(reproducteursQuery.fields)

const pairsOf = Effect.map(HttpServerRequest.HttpServerRequest, (request) => filledPairs(request.url))
const idParam = Effect.map(HttpRouter.params, (params) => params["id"] ?? "")

export const ExplorerRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const data = yield* Dataset
  const executor = yield* Executor
  const about = meta(data)

  const values = (dimension: string, limit: number): ReadonlyArray<string> => {
    const result = referential(data, dimension)
    return Result.isSuccess(result) ? result.success.donnees.slice(0, limit).map((m) => m.valeur) : []
  }
  const suggestions: Suggestions = {
    race: values("races", DATALIST_LIMITE),
    robe: values("robes", DATALIST_LIMITE),
    discipline: values("disciplines", DATALIST_LIMITE),
    indice: values("codes_indice", DATALIST_LIMITE),
    statut_reproducteur: values("statuts_reproducteur", DATALIST_LIMITE)
  }

  const refused = (problem: ParametreInvalide | Introuvable, json: string) => respond(errorPage(about, problem, json), problem.status)

  /** A page that admits no parameter: its render, or the 400 of the first one given. */
  const withoutQuery = (json: string, render: () => Html) =>
    Effect.map(pairsOf, (pairs) => {
      const decoded = decodeQuery(NoQuery, [], pairs)
      return Result.isSuccess(decoded) ? respond(render()) : refused(decoded.failure, json)
    })

  /** The record an id names, or its 404 page. */
  const withRow = (json: (id: string) => string, render: (row: number, pairs: Pairs, id: string) => HttpServerResponse.HttpServerResponse) =>
    Effect.gen(function*() {
      const id = yield* idParam
      const pairs = yield* pairsOf
      const row = findEquide(data, id)
      return row === undefined ? refused(equideNotFound, json(id)) : render(row, pairs, id)
    })

  const answered = <A>(execution: Execution, decode: (body: unknown) => A) =>
    Effect.map(executor.answer(execution), (bytes) => decode(JSON.parse(utf8.decode(bytes))))

  const list = Effect.gen(function*() {
    const pairs = yield* pairsOf
    const json = `/v1/equides${queryString(pairs)}`
    const decoded = decodeQuery(LIST_SCHEMA, LIST_DOCS, pairs)
    const outcome: ListOutcome = Result.isFailure(decoded)
      ? { kind: "refused", detail: decoded.failure.detail, indice: decoded.failure.indice }
      : yield* Effect.gen(function*() {
        const query = decoded.success
        const filters: Record<string, unknown> = {}
        for (const name of FILTER_PARAMETERS) if (query[name] !== undefined) filters[name] = query[name]
        const facetQuery = (dimension: string): RepartitionQuery => ({ ...filters, dimension, limite: FACET_LIMITE })
        const [page, ...facets] = yield* Effect.all([
          answered({ endpoint: "list", query, url: json }, decodePage),
          ...FACET_DIMENSIONS.map((dimension) =>
            answered({ endpoint: "repartition", query: facetQuery(dimension) }, decodeRepartition)
          )
        ], { concurrency: "unbounded" })
        return { kind: "page" as const, page: page as PageResumes, facets: facets as ReadonlyArray<Repartition> }
      }).pipe(Effect.catch((error) =>
        Effect.succeed<ListOutcome>({ kind: "refused", detail: error.detail, indice: error.indice })
      ))
    return respond(listPage(about, pairs, outcome, suggestions), outcome.kind === "refused" ? 400 : 200)
  })

  const BREAKDOWNS: ReadonlyArray<readonly [string, RepartitionQuery]> = [
    ["Par race (les 15 plus nombreuses)", { dimension: "race", limite: 15 }],
    ["Par robe (les 15 plus nombreuses)", { dimension: "robe", limite: 15 }],
    ["Par discipline des performances", { dimension: "discipline", limite: 50 }],
    ["Par statut de reproducteur", { dimension: "statut_reproducteur", limite: 15 }],
    ["Par année de naissance", { dimension: "annee_naissance" }]
  ]
  const statistics = Effect.gen(function*() {
    const pairs = yield* pairsOf
    const decoded = decodeQuery(NoQuery, [], pairs)
    if (Result.isFailure(decoded)) return refused(decoded.failure, "/v1/stats")
    const breakdowns = yield* Effect.all(
      BREAKDOWNS.map(([title, query]) =>
        Effect.map(answered({ endpoint: "repartition", query }, decodeRepartition), (repartition): Breakdown => ({
          title,
          json: `/v1/stats/repartition${queryString(Object.entries(query).map(([k, v]) => [k, String(v)] as const))}`,
          repartition
        }))
      ),
      { concurrency: "unbounded" }
    ).pipe(Effect.mapError(fromInvalidParameter), Effect.orDie)
    return respond(statsPage(about, stats(data), breakdowns))
  })

  const record = Effect.gen(function*() {
    const id = yield* idParam
    const pairs = yield* pairsOf
    const row = findEquide(data, id)
    if (row === undefined) return refused(equideNotFound, `/v1/equides/${id}`)
    const decoded = decodeQuery(NoQuery, [], pairs)
    if (Result.isFailure(decoded)) return refused(decoded.failure, `/v1/equides/${id}`)
    const view = recordView(data, row)
    // A parent's offspring statistics run where the API's do (on the query workers).
    const statistiques = view.equide.nombre_de_descendants === 0
      ? undefined
      : yield* answered({ endpoint: "descendanceStatistiques", row }, decodeStatistiques).pipe(Effect.orDie)
    return respond(recordPage(about, { ...view, statistiques }))
  })

  const codes = values("codes_indice", DATALIST_LIMITE)
  const sires = Effect.gen(function*() {
    const pairs = yield* pairsOf
    const json = `/v1/stats/reproducteurs${queryString(pairs)}`
    const decoded = decodeQuery(SIRES_SCHEMA, reproducteursQuery.docs, pairs)
    const outcome: SiresOutcome = pairs.every(([name]) => name !== "code")
      ? { kind: "form" }
      : Result.isFailure(decoded)
      ? { kind: "refused", detail: decoded.failure.detail, indice: decoded.failure.indice }
      : yield* answered({ endpoint: "reproducteurs", query: decoded.success, url: json }, decodeReproducteurs).pipe(
        Effect.map((ranking): SiresOutcome => ({ kind: "ranking", ranking })),
        Effect.catch((error) => Effect.succeed<SiresOutcome>({ kind: "refused", detail: error.detail, indice: error.indice }))
      )
    return respond(reproducteursPage(about, pairs, outcome, codes), outcome.kind === "refused" ? 400 : 200)
  })

  const tree = withRow((id) => `/v1/equides/${id}/pedigree`, (row, pairs, id) => {
    const decoded = decodeQuery(PEDIGREE_SCHEMA, pedigreeQuery.docs, pairs)
    return Result.isSuccess(decoded)
      ? respond(pedigreePage(about, pedigree(data, row, decoded.success.generations), parentLinks(data)))
      : refused(decoded.failure, `/v1/equides/${id}/pedigree${queryString(pairs)}`)
  })

  const progeny = withRow((id) => `/v1/equides/${id}/descendance`, (row, pairs, id) => {
    const decoded = decodeQuery(PROGENY_SCHEMA, descendanceQuery.docs, pairs)
    return Result.isSuccess(decoded)
      ? respond(progenyPage(about, progenyView(data, row, decoded.success.limite, decoded.success.offset), pairs))
      : refused(decoded.failure, `/v1/equides/${id}/descendance${queryString(pairs)}`)
  })

  // `/explorer` (typed by people) reaches this route too: sent to the home's one URI.
  const home = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    request.url.startsWith(EXPLORER_HOME)
      ? withoutQuery("/v1/meta", () => homePage(about))
      : Effect.succeed(HttpServerResponse.redirect(EXPLORER_HOME + request.url.slice(EXPLORER_HOME.length - 1), { status: 308 })))

  const asset = Effect.gen(function*() {
    const params = yield* HttpRouter.params
    const file = assetNamed(params["file"] ?? "")
    if (file === undefined) {
      return yield* problemResponse(new Introuvable({ detail: "Aucun fichier statique ne porte ce nom (les noms changent avec leur contenu)." }))
    }
    return HttpServerResponse.uint8Array(file.body, { contentType: file.contentType })
  })

  const routes: ReadonlyArray<HttpRouter.Route<never, never>> = [
    HttpRouter.route("GET", EXPLORER_HOME, home),
    HttpRouter.route("GET", EXPLORER_LIST, list),
    HttpRouter.route("GET", EXPLORER_RECORD, record),
    HttpRouter.route("GET", EXPLORER_PEDIGREE, tree),
    HttpRouter.route("GET", EXPLORER_PROGENY, progeny),
    HttpRouter.route("GET", EXPLORER_STATS, statistics),
    HttpRouter.route("GET", EXPLORER_SIRES, sires),
    HttpRouter.route("GET", EXPLORER_ASSET, asset),
    HttpRouter.route("GET", FAVICON, HttpServerResponse.uint8Array(FAVICON_ICO, { contentType: "image/x-icon" }))
  ]
  return routes
}))
