/** Group `stats`: global counts and the breakdown of a filtered selection. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { dictionarySize } from "../dataset/columns.ts"
import { DEFAULT_LIMITE, MAX_LIMITE, MIN_LIMITE } from "../query/paginate.ts"
import { DEFAULT_REPARTITION_LIMITE, MAX_REPARTITION_LIMITE, MIN_REPARTITION_LIMITE } from "../query/repartition.ts"
import { Reproducteurs } from "../schemas/progeny.ts"
import { Repartition, Stats } from "../schemas/reference.ts"
import { bytesEstimate, intOr, ROW_BYTES } from "./bytesEstimate.ts"
import { discoveryKey } from "./discoveryPlace.ts"
import { executionCost } from "./executionCost.ts"
import { FILTER_PARAMETERS } from "../vocabulary.ts"
import { Disponibilite } from "./middleware.ts"
import { documented, NoQuery } from "./params.ts"
import { repartitionQuery, reproducteursQuery } from "./queries.ts"
import { example } from "./routeExample.ts"
import { benchPlan } from "./benchPlan.ts"
import { onWorkers } from "./workers.ts"

/** Kept where they were first declared, for those who import them from here (they live in `queries.ts`). */
export { repartitionQuery, reproducteursQuery }

export class StatsApi extends HttpApiGroup.make("stats")
  .add(
    HttpApiEndpoint.get("global", "/v1/stats", {
      query: NoQuery,
      success: Stats
    }).annotateMerge(discoveryKey("statistiques"))
      .annotateMerge(onWorkers("stats"))
      .annotateMerge(example(() => ({ url: "/v1/stats", execution: { endpoint: "stats" } }))).annotateMerge(OpenApi.annotations({
      summary: "Comptages globaux, sans filtre",
      description:
        "Total, fiches avec et sans filiation, avec et sans performances, nombres de races, robes et disciplines, années extrêmes, répartition par sexe. " +
        "« Sans performances » signifie seulement qu'aucun indice n'est publié."
    })),
    HttpApiEndpoint.get("repartition", "/v1/stats/repartition", {
      query: repartitionQuery.fields,
      success: Repartition
    }).annotateMerge(discoveryKey("repartition", { parameters: ["dimension", ...FILTER_PARAMETERS, "limite"] }))
      .annotateMerge(onWorkers("repartition"))
      .annotateMerge(benchPlan({
        requests: [
          { name: "race", query: { dimension: "race" }, kind: "breakdown" },
          { name: "race, filtered", query: { dimension: "race", sexe: "Femelle", annee_min: "2000" } }
        ]
      }))
      .annotateMerge(example(({ race }) => ({
        url: `/v1/stats/repartition?dimension=robe&limite=5${race === undefined ? "" : `&race=${encodeURIComponent(race)}`}`,
        execution: { endpoint: "repartition", query: { dimension: "robe", limite: 5, ...(race === undefined ? {} : { race: [race] }) } }
      }), {
        // The whole set unfiltered, and the years (a dimension counted in its own order) of one sex.
        warms: () => [{ endpoint: "repartition", query: {} }, { endpoint: "repartition", query: { dimension: "annee_naissance", sexe: ["Male"] } }]
      }))
      .annotateMerge(bytesEstimate((query, data) =>
        ROW_BYTES.tranche *
        (query.dimension === "annee_naissance" ? dictionarySize(data.annee.values) : intOr(query.limite, DEFAULT_REPARTITION_LIMITE, MIN_REPARTITION_LIMITE, MAX_REPARTITION_LIMITE))
      )).annotateMerge(documented(repartitionQuery))
      // 0–2 filters: ~0.026 ms on the sample ×148 ≈ 3.8 ms; full scale: 0.4–1 ms unfiltered, 8–11 ms over 1.65 M rows (docs/performance.md).
      .annotateMerge(executionCost(4))
      .annotateMerge(OpenApi.annotations({
      summary: "Répartition d'une sélection filtrée",
      description: "Mêmes filtres que /v1/equides ; tranches de la plus à la moins nombreuse (annee_naissance : chronologique)."
    }))
,
    HttpApiEndpoint.get("reproducteurs", "/v1/stats/reproducteurs", {
      query: reproducteursQuery.fields,
      success: Reproducteurs
    }).annotateMerge(discoveryKey("reproducteurs"))
      .annotateMerge(onWorkers("reproducteurs"))
      .annotateMerge(benchPlan({
        requests: [{ kind: "breakdown" }, { name: "born 2010 on", query: { annee_min: "2010", produits_min: "10" }, kind: "breakdown" }]
      }))
      .annotateMerge(example(({ indice }) => {
        if (indice === undefined) return undefined
        const url = `/v1/stats/reproducteurs?code=${encodeURIComponent(indice)}&produits_min=1&limite=3`
        return { url, execution: { endpoint: "reproducteurs", query: { code: indice, produits_min: 1, limite: 3 }, url } }
      }, {
        // The plain URI (a page of 20 parents of at least 5 products: the example's 3 left the summary of a page
        // interpreted, 10–17 ms on each worker's first request at full scale, issue 24 item 6), which makes the
        // rankings every code's plain URI answers from (the thread keeps them: one pass over every code, 17–50 ms at full
        // scale, 0.3 MiB); year bounds take another path (each parent's entries filtered, then summarised).
        warms: ({ indice }) => {
          if (indice === undefined) return []
          const code = encodeURIComponent(indice)
          return [
            { endpoint: "reproducteurs", query: { code: indice }, url: `/v1/stats/reproducteurs?code=${code}` },
            { endpoint: "reproducteurs", query: { code: indice, annee_min: 2000 }, url: `/v1/stats/reproducteurs?code=${code}&annee_min=2000` }
          ]
        }
      }))
      .annotateMerge(bytesEstimate((query) => ROW_BYTES.reproducteur * intOr(query.limite, DEFAULT_LIMITE, MIN_LIMITE, MAX_LIMITE)))
      .annotateMerge(documented(reproducteursQuery))
      // Full scale: p50 0.44 ms, p99 6 ms (docs/performance.md, issue 29); the columns are built with the Dataset.
      .annotateMerge(executionCost(1))
      .annotateMerge(OpenApi.annotations({
      summary: "Reproducteurs classés par l'indice de leurs produits",
      description:
        "Reproducteurs (fiches du sexe demandé, Male par défaut, et de la race demandée) ayant au moins produits_min produits " +
        "(nés entre annee_min et annee_max quand ces bornes sont données) avec une valeur du code ; pour chacun, le nombre de ces produits, " +
        "leur moyenne et leur médiane (arrondies au centième) et le maximum. La valeur d'un produit est celle de son indice du code dont l'année est la " +
        "plus récente, lue comme un décimal signé ; les produits comptent par leur père comme par leur mère, comme dans /v1/equides/{id}/descendance/statistiques. " +
        "Ordre : moyenne décroissante, puis nombre de produits décroissant, puis nom (sans casse ni accents), puis id ; liens suivant/precedent conservant les paramètres."
    }))
  )
  .middleware(Disponibilite)
  .annotateMerge(OpenApi.annotations({ description: "Statistiques" }))
{}
