/** Group `equides`: the list, one record, its pedigree and its direct offspring. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  descendance,
  DESCENDANCE_LIMITE_DEFAUT,
  DESCENDANCE_LIMITE_MAX,
  DESCENDANCE_LIMITE_MIN,
  DESCENDANCE_OFFSET_DEFAUT
} from "../query/descendance.ts"
import { DEFAULT_LIMITE, MAX_LIMITE, MIN_LIMITE } from "../query/paginate.ts"
import { pedigree, PEDIGREE_GENERATIONS_DEFAUT, PEDIGREE_GENERATIONS_MAX } from "../query/pedigree.ts"
import { equide } from "../query/record.ts"
import { Equide } from "../schemas/equide.ts"
import { PageEquides } from "../schemas/lists.ts"
import { Descendance, Pedigree } from "../schemas/pedigree.ts"
import { StatistiquesDescendance } from "../schemas/progeny.ts"
import { bytesEstimate, intOr, ROW_BYTES } from "./bytesEstimate.ts"
import { benchPlan } from "./benchPlan.ts"
import { discoveryKey } from "./discoveryPlace.ts"
import { executionCost } from "./executionCost.ts"
import { FILTER_PARAMETERS } from "../vocabulary.ts"
import { Disponibilite } from "./middleware.ts"
import { clampedInt, documented, int, NoQuery, params, pathText } from "./params.ts"
import { Introuvable } from "./problems.ts"
import { listQuery } from "./queries.ts"
import { example } from "./routeExample.ts"
import { onWorkers } from "./workers.ts"

/** Kept where it was first declared, for those who import it from here (it lives in `queries.ts`). */
export { listQuery }

export const idPath = params("path", {
  id: pathText({
    description:
      "Identifiant officiel (22 caractères base64url, le même que dans l'URL de la fiche publique). Un identifiant inconnu et un identifiant mal formé reçoivent la même réponse 404.",
    schema: { type: "string", minLength: 22, maxLength: 22, pattern: "^[A-Za-z0-9_-]{21}[AQgw]$" }
  })
})

export const pedigreeQuery = params("query", {
  generations: int({
    minimum: 0,
    maximum: PEDIGREE_GENERATIONS_MAX,
    default: PEDIGREE_GENERATIONS_DEFAUT,
    description: "Profondeur de l'arbre (0 : le sujet seul) ; au-delà du maximum : 400."
  })
})

export const descendanceQuery = params("query", {
  limite: clampedInt({
    minimum: DESCENDANCE_LIMITE_MIN,
    maximum: DESCENDANCE_LIMITE_MAX,
    default: DESCENDANCE_LIMITE_DEFAUT,
    description: "Taille de page."
  }),
  offset: int({
    default: DESCENDANCE_OFFSET_DEFAUT,
    description:
      "Rang du premier produit (minimum 0 : une valeur négative est ramenée à 0) ; un offset au-delà du total donne une page vide, total inchangé."
  })
})

export class EquidesApi extends HttpApiGroup.make("equides")
  .add(
    HttpApiEndpoint.get("list", "/v1/equides", {
      query: listQuery.fields,
      success: PageEquides
    }).annotateMerge(discoveryKey("liste", { parameters: [...FILTER_PARAMETERS, "tri", "vue", "limite", "offset"] }))
      .annotateMerge(onWorkers("list"))
      .annotateMerge(benchPlan({
        requests: [
          { name: "default page" },
          { name: "3 filters", query: { race: "{race}", sexe: "Femelle", robe: "{robe}" } },
          { name: "tri=nom offset 9000", query: { tri: "nom", offset: "9000" } },
          { name: "nom= prefix", query: { nom: "{namePrefix}" } }
        ]
      }))
      .annotateMerge(example(({ race }) => {
        const url = `/v1/equides?${race === undefined ? "" : `race=${encodeURIComponent(race)}&`}tri=-annee&limite=3`
        return { url, execution: { endpoint: "list", query: { ...(race === undefined ? {} : { race: [race] }), tri: "-annee", limite: 3 }, url } }
      }, {
        // The other orders, the full view, a year bound and a name prefix: code paths the example does not take.
        warms: ({ words: [word] }) => {
          const prefix = word?.slice(0, 2)
          return [
            { endpoint: "list", query: { sexe: ["Femelle"], annee_min: 2000, tri: "nom", vue: "complet" }, url: "/v1/equides?sexe=Femelle&annee_min=2000&tri=nom&vue=complet" },
            ...(prefix === undefined ? [] : [{ endpoint: "list", query: { nom: prefix, tri: "-nom" }, url: `/v1/equides?nom=${encodeURIComponent(prefix)}&tri=-nom` } as const])
          ]
        }
      }))
      .annotateMerge(bytesEstimate((query) => intOr(query.limite, DEFAULT_LIMITE, MIN_LIMITE, MAX_LIMITE) * (query.vue === "complet" ? ROW_BYTES.complet : ROW_BYTES.resume)))
      .annotateMerge(documented(listQuery))
      // A filtered list, 1–3 filters: ~0.010 ms on the sample ×148 ≈ 1.5 ms; the bench's varied lists ~2 ms (docs/performance.md).
      // An unfiltered list (a window of a pre-sorted order) pays the bytes rule alone (admission/quota.ts).
      .annotateMerge(executionCost(2))
      .annotateMerge(OpenApi.annotations({
      summary: "Rechercher et lister des équidés",
      description:
        "Filtres d'une même dimension combinés par OU, de dimensions différentes par ET. Page de Resume par défaut, d'Equide avec vue=complet ; liens suivant/precedent conservant les filtres."
    })),
    HttpApiEndpoint.get("get", "/v1/equides/:id", {
      params: idPath.fields,
      query: NoQuery,
      success: Equide,
      error: Introuvable
    }).annotateMerge(discoveryKey("fiche"))
      .annotateMerge(example(({ data, id, row }) => ({ url: `/v1/equides/${id}`, answer: () => equide(data, row) }))).annotateMerge(documented(idPath)).annotateMerge(OpenApi.annotations({
      summary: "Un équidé (fiche complète)",
      description:
        "Identité, race, robe, sexe, année de naissance, filiation (pere, mere, pere_de_mere : Reference, dont la race suit la nomenclature du lien), " +
        "performances, nombre de descendants et URL de la fiche publique. Un identifiant inconnu et un identifiant mal formé reçoivent la même réponse 404."
    })),
    HttpApiEndpoint.get("pedigree", "/v1/equides/:id/pedigree", {
      params: idPath.fields,
      query: pedigreeQuery.fields,
      success: Pedigree,
      error: Introuvable
    }).annotateMerge(discoveryKey("pedigree"))
      .annotateMerge(benchPlan({ requests: [{ name: "8 generations", query: { generations: "8" } }] }))
      .annotateMerge(example(({ data, id, row }) => ({ url: `/v1/equides/${id}/pedigree?generations=1`, answer: () => pedigree(data, row, 1) })))
      .annotateMerge(bytesEstimate((query) => ROW_BYTES.noeud * (2 ** (intOr(query.generations, PEDIGREE_GENERATIONS_DEFAUT, 0, PEDIGREE_GENERATIONS_MAX) + 1) - 1)))
      .annotateMerge(documented(idPath, pedigreeQuery)).annotateMerge(OpenApi.annotations({
      summary: "Arbre des ancêtres",
      description: "Une seule requête, mise en cache. Une branche s'arrête où un parent est référencé mais absent du jeu de données."
    })),
    HttpApiEndpoint.get("descendance", "/v1/equides/:id/descendance", {
      params: idPath.fields,
      query: descendanceQuery.fields,
      success: Descendance,
      error: Introuvable
    }).annotateMerge(discoveryKey("descendance"))
      .annotateMerge(benchPlan({ subject: "offspring" }))
      .annotateMerge(example(({ data, id, row }) => ({ url: `/v1/equides/${id}/descendance?limite=2`, answer: () => descendance(data, row, 2, 0) })))
      .annotateMerge(bytesEstimate((query) => ROW_BYTES.produit * intOr(query.limite, DESCENDANCE_LIMITE_DEFAUT, DESCENDANCE_LIMITE_MIN, DESCENDANCE_LIMITE_MAX)))
      .annotateMerge(documented(idPath, descendanceQuery)).annotateMerge(OpenApi.annotations({
      summary: "Produits directs",
      description:
        "Fiches ayant cet équidé pour père ou pour mère, par année de naissance croissante ; la descendance complète se parcourt en suivant les identifiants."
    })),
    HttpApiEndpoint.get("descendanceStatistiques", "/v1/equides/:id/descendance/statistiques", {
      params: idPath.fields,
      query: NoQuery,
      success: StatistiquesDescendance,
      error: Introuvable
    }).annotateMerge(discoveryKey("statistiques_descendance"))
      .annotateMerge(onWorkers("descendanceStatistiques"))
      .annotateMerge(benchPlan({ subject: "offspring" }))
      .annotateMerge(example(({ id, row }) => ({ url: `/v1/equides/${id}/descendance/statistiques`, execution: { endpoint: "descendanceStatistiques", row } })))
      .annotateMerge(bytesEstimate(() => ROW_BYTES.statistiquesDescendance))
      .annotateMerge(documented(idPath))
      // Full scale, once a code's columns are built: p50 0.84 ms, p99 4.7 ms for the sire with the most offspring
      // (docs/performance.md, issue 29); every code's columns are built with the Dataset.
      .annotateMerge(executionCost(1))
      .annotateMerge(OpenApi.annotations({
      summary: "Statistiques des produits directs",
      description:
        "Produits (fiches ayant cet équidé pour père ou pour mère) et petits-produits distincts ; produits par année de naissance (chronologique), " +
        "par sexe et par race (du plus au moins nombreux, puis par valeur) ; puis, pour chaque code d'indice porté par au moins un produit, " +
        "le nombre de produits ayant une valeur, leur moyenne et leur médiane (arrondies au centième), le maximum et les 5 meilleurs produits. " +
        "La valeur d'un produit pour un code est celle de son indice de ce code dont l'année est la plus récente (le premier cité en cas d'égalité), " +
        "lue comme un décimal signé (« +6 », « 88 », « -3.5 ») ; une valeur illisible est écartée. Codes par nombre de produits décroissant, puis par code."
    }))
  )
  .middleware(Disponibilite)
  .annotateMerge(OpenApi.annotations({ title: "equides", description: "Équidés : liste, fiche, pedigree, descendance" }))
{}
