/**
 * The explorer's routes. The pages that read the data (list and facets, statistics, record,
 * pedigree, progeny, ranked parents, a breed's genetics, stallions for a mare, a test mating) are rendered by the `Executor` (`pages.ts`: on a query worker when there are,
 * so that none holds the server's thread); the home, the static files and the favicon are constant.
 * Registered with admission (`paths.ts`), so ETag, 304, compression, quota and the response cache apply.
 */
import { Dataset, Introuvable, meta, NoQuery } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Executor } from "../execution/Executor.ts"
import { problemResponse } from "../problems.ts"
import { assetNamed, FAVICON_ICO } from "./assets.ts"
import { errorPage } from "./errorPage.ts"
import { homePage } from "./home.ts"
import type { Html } from "./html.ts"
import type { PageExecution } from "./pages.ts"
import {
  EXPLORER_ASSET,
  EXPLORER_GENETICS,
  EXPLORER_HOME,
  EXPLORER_LIST,
  EXPLORER_MATING,
  EXPLORER_MATINGS,
  EXPLORER_PEDIGREE,
  EXPLORER_PROGENY,
  EXPLORER_RECORD,
  EXPLORER_SIRES,
  EXPLORER_STATS,
  FAVICON
} from "./paths.ts"
import { decodeQuery, filledPairs } from "./query.ts"

const HTML = "text/html; charset=utf-8"

const respond = (page: Html, status = 200) => HttpServerResponse.text(page.markup, { status, contentType: HTML })

const pairsOf = Effect.map(HttpServerRequest.HttpServerRequest, (request) => filledPairs(request.url))

export const ExplorerRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const data = yield* Dataset
  const executor = yield* Executor
  const about = meta(data)

  /** A page that admits no parameter: its render, or the 400 of the first one given. */
  const withoutQuery = (json: string, render: () => Html) =>
    Effect.map(pairsOf, (pairs) => {
      const decoded = decodeQuery(NoQuery, [], pairs)
      return Result.isSuccess(decoded) ? respond(render()) : respond(errorPage(about, decoded.failure, json), decoded.failure.status)
    })

  /** A page that reads the data, rendered by the executor. */
  const rendered = (page: (url: string, id: string) => PageExecution) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const params = yield* HttpRouter.params
      const { status, body } = yield* executor.render(page(request.url, params["id"] ?? ""))
      return HttpServerResponse.uint8Array(body, { status, contentType: HTML })
    })

  const list = rendered((url) => ({ page: "list", url }))
  const statistics = rendered((url) => ({ page: "stats", url }))
  const record = rendered((url, id) => ({ page: "record", url, id }))
  const tree = rendered((url, id) => ({ page: "pedigree", url, id }))
  const progeny = rendered((url, id) => ({ page: "progeny", url, id }))
  const sires = rendered((url) => ({ page: "reproducteurs", url }))
  const genetics = rendered((url) => ({ page: "genetique", url }))
  const matings = rendered((url) => ({ page: "accouplements", url }))
  const mating = rendered((url) => ({ page: "accouplement", url }))

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
    HttpRouter.route("GET", EXPLORER_GENETICS, genetics),
    HttpRouter.route("GET", EXPLORER_MATINGS, matings),
    HttpRouter.route("GET", EXPLORER_MATING, mating),
    HttpRouter.route("GET", EXPLORER_ASSET, asset),
    HttpRouter.route("GET", FAVICON, HttpServerResponse.uint8Array(FAVICON_ICO, { contentType: "image/x-icon" }))
  ]
  return routes
}))
