/** Group `search`: name suggestions for a search box. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { DEFAULT_SUGGEST_LIMITE, MAX_SUGGEST_LIMITE, MIN_SUGGEST_LIMITE } from "../query/suggest.ts"
import { Suggestions } from "../schemas/lists.ts"
import { bytesEstimate, intOr, ROW_BYTES } from "./bytesEstimate.ts"
import { discoveryKey } from "./discoveryPlace.ts"
import { executionCost } from "./executionCost.ts"
import { Disponibilite } from "./middleware.ts"
import { documented } from "./params.ts"
import { searchQuery } from "./queries.ts"
import { example } from "./routeExample.ts"
import { benchPlan } from "./benchPlan.ts"
import { onWorkers } from "./workers.ts"

/** Kept where it was first declared, for those who import it from here (it lives in `queries.ts`). */
export { searchQuery }

export class SearchApi extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.get("suggest", "/v1/search", {
      query: searchQuery.fields,
      success: Suggestions
    }).annotateMerge(discoveryKey("recherche"))
      .annotateMerge(onWorkers("suggest"))
      .annotateMerge(benchPlan({ requests: [{ name: "one letter", query: { q: "A" } }, { name: "two words", query: { q: "{twoWords}" } }] }))
      .annotateMerge(example(({ words: [word] }) =>
        word === undefined ? undefined : {
          url: `/v1/search?q=${encodeURIComponent(word)}&limite=3`,
          execution: { endpoint: "suggest", query: { q: word, limite: 3 } }
        }, {
        // A first letter at the default limite, and a whole word then the start of another (the subject's name's):
        // a name typed on takes the multi-word path, whose first run on each worker took 8–10 ms at full scale
        // (issue 24 item 6). Its two letters and its one letter take the scan by the rarest word's two ways
        // (by length, by its rows' tokens: `suggestByWord.ts`); at 4.45 M rows the second is a fifth of the
        // bench's search queries, and its first runs after ready were 2–4 times its warm ones when unwarmed. The
        // third way, by a frequent whole word's bits, is warmed by `prepareWordScans` on the most frequent word.
        warms: ({ words: [first, second] }) => [
          ...(first === undefined ? [] : [{ endpoint: "suggest" as const, query: { q: first.slice(0, 1) } }]),
          ...(second === undefined ? [] : [2, 1].map((letters) => ({ endpoint: "suggest" as const, query: { q: `${first} ${second.slice(0, letters)}` } })))
        ]
      }))
      .annotateMerge(bytesEstimate((query) => ROW_BYTES.suggestion * intOr(query.limite, DEFAULT_SUGGEST_LIMITE, MIN_SUGGEST_LIMITE, MAX_SUGGEST_LIMITE)))
      .annotateMerge(documented(searchQuery))
      // Bounded by limite: ~0.007 ms on the sample; 0.8–2.5 ms at full scale (docs/performance.md).
      .annotateMerge(executionCost(1))
      .annotateMerge(OpenApi.annotations({
      summary: "Suggestions de noms",
      description:
        "Classées de la plus à la moins pertinente ; pas de pagination, coût borné par limite. Contrairement au filtre nom de la liste, cette route classe."
    }))
  )
  .middleware(Disponibilite)
  .annotateMerge(OpenApi.annotations({ description: "Suggestions de noms (autocomplétion)" }))
{}
