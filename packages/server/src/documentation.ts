/**
 * `GET /documentation`: the HTML guide, with a runnable `curl` request and an excerpt of its real
 * answer for every route (from the loaded data, made on first use), and one anchored section per
 * problem type.
 */
import { Dataset, type DatasetData, ParametreInvalide, Refusals, unknownParameterHint } from "@equides/domain"
import * as Effect from "effect/Effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Executor } from "./execution/Executor.ts"
import { servedDescription } from "./openapi.ts"
import { DOCUMENTATION_ROUTE } from "./pageRoutes.ts"
import { documentationPage, escape } from "./pages.ts"
import { problemResponse } from "./problems.ts"

/** Lines of an answer shown; the rest is elided. */
const EXCERPT_LINES = 16

/** The first lines of a JSON body, pretty-printed, `…` marking what is left out. */
const excerptOf = (body: unknown): string => {
  const lines = (JSON.stringify(body, null, 2) ?? "null").split("\n")
  return lines.length <= EXCERPT_LINES ? lines.join("\n") : [...lines.slice(0, EXCERPT_LINES), "…"].join("\n")
}

const decoder = new TextDecoder()

const examplesSection = (data: DatasetData, executor: Executor["Service"]) =>
  Effect.gen(function*() {
    const { requests } = servedDescription(data).examples
    if (requests.length === 0) return ""
    const items: Array<string> = []
    for (const request of requests) {
      const body = "execution" in request
        ? yield* executor.answer(request.execution).pipe(
          Effect.map((bytes): unknown => JSON.parse(decoder.decode(bytes))),
          Effect.orElseSucceed(() => undefined)
        )
        : request.answer()
      items.push(`<h3>GET ${escape(request.route)}</h3>
<pre><code>curl -s "$API${escape(request.url)}"</code></pre>
<pre><code>${escape(excerptOf(body))}</code></pre>`)
    }
    return examplesIntro(items.join("\n"))
  })

const examplesIntro = (items: string): string =>
  `<h2 id="exemples">Exemples</h2>
<p>Chaque requête ci-dessous s'exécute telle quelle dans un shell après <code>API=http://localhost:8080</code> (l'origine de ce
service) ; la réponse montrée en est le début, tirée des données chargées.</p>
${items}
`

/** The answer of a page to any query parameter: it admits none. */
export const refusedParameter = (name: string) =>
  problemResponse(
    new ParametreInvalide({
      detail: Refusals.parameterNotAdmitted(name),
      parametre: name,
      indice: unknownParameterHint(name, [])
    })
  )

export const DocumentationRoute = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const data = yield* Dataset
    const executor = yield* Executor
    let page: HttpServerResponse.HttpServerResponse | undefined
    yield* router.add(
      "GET",
      DOCUMENTATION_ROUTE,
      Effect.gen(function*() {
        const query = yield* HttpServerRequest.ParsedSearchParams
        const name = Object.keys(query)[0]
        if (name !== undefined) return yield* refusedParameter(name)
        page ??= HttpServerResponse.text(documentationPage(yield* examplesSection(data, executor)), { contentType: "text/html; charset=utf-8" })
        return page
      })
    )
  })
)
