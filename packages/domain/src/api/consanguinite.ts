/**
 * Group `consanguinite`: a horse's inbreeding coefficient and a planned mating's, with the
 * definitions the documentation page prints.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  CONSANGUINITE_GENERATIONS_DEFAUT,
  CONSANGUINITE_GENERATIONS_MAX,
  CONSANGUINITE_GENERATIONS_MIN
} from "../query/consanguinite/consanguinite.ts"
import { DEFAULT_LIMITE, MAX_LIMITE, MIN_LIMITE } from "../query/paginate.ts"
import { idOf, raceOf, sexeOf } from "../query/record.ts"
import { foldValue } from "../text/fold.ts"
import { Accouplement, Consanguinite } from "../schemas/consanguinite.ts"
import { Etalons } from "../schemas/etalons.ts"
import { idPath } from "./equides.ts"
import { executionCost } from "./executionCost.ts"
import { Disponibilite } from "./middleware.ts"
import { FILTER_PARAMETERS } from "../vocabulary.ts"
import type { EtalonsQuery } from "./answers.ts"
import { etalonsQuery } from "./queries.ts"
import { documented, int, params, requiredText } from "./params.ts"
import { Introuvable } from "./problems.ts"
import { bytesEstimate, type BytesEstimator, intOr, ROW_BYTES } from "./bytesEstimate.ts"
import { discoveryKey } from "./discoveryPlace.ts"
import { example } from "./routeExample.ts"
import { benchPlan } from "./benchPlan.ts"
import { onWorkers } from "./workers.ts"

const generations = int({
  minimum: CONSANGUINITE_GENERATIONS_MIN,
  maximum: CONSANGUINITE_GENERATIONS_MAX,
  default: CONSANGUINITE_GENERATIONS_DEFAUT,
  description: "Profondeur de la coupe, comptée depuis le poulain (ses parents sont la génération 1) ; hors bornes : 400."
})

export const consanguiniteQuery = params("query", { generations })

const parentId = (role: string) =>
  requiredText({
    description: `Identifiant ${role} (22 caractères base64url). Inconnu ou mal formé : 404 nommant le paramètre.`
  })

export const accouplementQuery = params("query", {
  pere: parentId("du père"),
  mere: parentId("de la mère"),
  generations
})

/** The definitions behind both routes, in French, for `/documentation` (one paragraph each). */
export const DEFINITIONS_CONSANGUINITE: ReadonlyArray<readonly [string, string]> = [
  [
    "Générations et coupe",
    "Les générations se comptent depuis le poulain : ses parents sont la génération 1. Le graphe des ancêtres est coupé à N " +
    "(generations, de 1 à 12, 8 par défaut) : un ancêtre y figure si une lignée l'atteint en N générations au plus, et ses propres " +
    "parents seulement s'il est atteint avant la génération N. Au-delà, les ancêtres sont supposés non apparentés et non consanguins."
  ],
  [
    "Coefficient de Wright",
    "F = Σ sur les ancêtres communs A, sur chaque paire de chemins père…A et mère…A n'ayant aucun individu en commun sauf A, de " +
    "(1/2)^(n1+n2+1) · (1 + F_A), n1 et n2 comptant les liens de chaque chemin, F_A calculé dans la même coupe. F est calculé par la " +
    "méthode tabulaire (coefficients de parenté f) sur le graphe coupé ; les contributions des ancêtres communs, par énumération des " +
    "chemins sur le même graphe : leur somme est F. Un ancêtre atteint avant la génération N peut ouvrir des chemins plus longs que N " +
    "(positions au-delà de N) : ils appartiennent au même graphe et comptent dans F."
  ],
  [
    "Identité",
    "Un ancêtre est une fiche (un lien résolu). Un parent nommé sans fiche (lien pendant) est un individu distinct à chaque apparition : " +
    "il compte comme connu, n'a pas d'ancêtres et n'est jamais commun. Un parent inconnu ne contribue pas. Un lien qui ferait d'une " +
    "fiche son propre ancêtre (défaut de la source) est ignoré."
  ],
  [
    "Ancêtres communs",
    "Un ancêtre commun est un ancêtre qui a au moins une paire de chemins comptée dans F ; positions_pere et positions_mere donnent la " +
    "génération de chacun de ses chemins par le père et par la mère, chemins le nombre de paires comptées, contribution sa part de F. " +
    "Un ancêtre présent des deux côtés seulement à travers un autre ancêtre commun n'ajoute rien et n'est pas listé. Tri : contribution " +
    "décroissante, puis nom, puis identifiant."
  ],
  [
    "Complétude",
    "Part connue à la génération g = emplacements connus / 2^g (un emplacement est connu quand le lien nomme un parent, avec ou sans " +
    "fiche). Indice de MacCluer : moyenne harmonique des complétudes moyennes du côté du père et du côté de la mère sur les N " +
    "générations (de chaque côté, la génération g compte 2^(g−1) emplacements). Générations complètes équivalentes : somme des parts."
  ],
  [
    "Accouplement",
    "Pour un accouplement envisagé, coefficient est le F du poulain qu'il donnerait, soit la parenté f(père, mère) dans la coupe comptée " +
    "depuis ce poulain ; coefficient_de_parente est R = 2·f(père, mère) / √((1 + F_père)(1 + F_mère)) ; la complétude de chaque parent " +
    "porte sur son propre pedigree dans la coupe (N − 1 générations). Le sexe n'est pas vérifié (la source n'est pas assez fiable pour refuser)."
  ],
  [
    "Choix d'un étalon",
    "/v1/accouplements/etalons classe pour une jument chaque fiche de sexe Male retenue par les filtres de la liste (sauf sexe) : coefficient est le F " +
    "du poulain sur toutes les générations connues, sans coupe (la parenté f(étalon, jument), les liens qui fermeraient un cycle ignorés comme pour " +
    "/v1/equides/{id}/genetique), calculé pour tous les étalons à la fois par un passage de la méthode indirecte de Colleau (2002) : la ligne de la " +
    "jument dans la matrice de parenté, A·e_jument. parente_moyenne est la parenté moyenne de l'étalon avec la population de référence de la race " +
    "de la jument (voir Génétique) ; produits, ses produits connus. Tri : coefficient croissant, produits décroissants, nom, identifiant."
  ]
]

/** The common ancestors of a cut: each fills at least 2 of its 2^(g+1) − 2 slots, so at most 2^g − 1 of them. */
const cutBytes: BytesEstimator = (query) =>
  ROW_BYTES.consanguinite +
  ROW_BYTES.ancetreCommun * (2 ** intOr(query.generations, CONSANGUINITE_GENERATIONS_DEFAUT, CONSANGUINITE_GENERATIONS_MIN, CONSANGUINITE_GENERATIONS_MAX) - 1)

export class ConsanguiniteApi extends HttpApiGroup.make("consanguinite")
  .add(
    HttpApiEndpoint.get("equide", "/v1/equides/:id/consanguinite", {
      params: idPath.fields,
      query: consanguiniteQuery.fields,
      success: Consanguinite,
      error: Introuvable
    }).annotateMerge(discoveryKey("consanguinite"))
      .annotateMerge(onWorkers("consanguinite"))
      .annotateMerge(benchPlan({ requests: [{ name: "8 generations" }, { name: "12 generations", query: { generations: "12" }, kind: "deep" }] }))
      .annotateMerge(example(({ id, row }) => ({ url: `/v1/equides/${id}/consanguinite`, execution: { endpoint: "consanguinite", row, generations: undefined } }), {
        // The deepest cut: the enumeration of paths at its longest.
        warms: ({ row }) => [{ endpoint: "consanguinite", row, generations: CONSANGUINITE_GENERATIONS_MAX }]
      }))
      .annotateMerge(bytesEstimate(cutBytes))
      .annotateMerge(documented(idPath, consanguiniteQuery))
      // ~0.01–0.02 ms on the sample; full scale 0.05 ms (generator), 0.2 ms at 8 and 7–9 ms at 12 generations on a closed
      // population (docs/performance.md): the depth is priced by the bytes rule (38 units at 12), above that.
      .annotateMerge(executionCost(0.5))
      .annotateMerge(OpenApi.annotations({
      summary: "Consanguinité d'un équidé",
      description:
        "Coefficient de consanguinité de Wright F dans la coupe à N générations (méthode tabulaire), ancêtres communs et leur contribution " +
        "(énumération des chemins), complétude du pedigree. Définitions : /documentation#consanguinite."
    })),
    HttpApiEndpoint.get("accouplement", "/v1/accouplements", {
      query: accouplementQuery.fields,
      success: Accouplement,
      error: Introuvable
    }).annotateMerge(discoveryKey("accouplement"))
      .annotateMerge(onWorkers("accouplement"))
      .annotateMerge(example(({ data, mating }) =>
        mating === undefined ? undefined : {
          url: `/v1/accouplements?pere=${idOf(data, mating.pere)}&mere=${idOf(data, mating.mere)}`,
          execution: { endpoint: "accouplement", pere: mating.pere, mere: mating.mere, generations: undefined }
        }, {
        warms: ({ mating }) => mating === undefined ? [] : [{ endpoint: "accouplement", pere: mating.pere, mere: mating.mere, generations: CONSANGUINITE_GENERATIONS_MAX }]
      }))
      .annotateMerge(bytesEstimate(cutBytes))
      .annotateMerge(documented(accouplementQuery))
      // As a horse's consanguinity (above).
      .annotateMerge(executionCost(0.5))
      .annotateMerge(OpenApi.annotations({
      summary: "Accouplement envisagé",
      description:
        "F du poulain que donnerait l'accouplement pere × mere, coefficient de parenté R des parents, ancêtres communs et complétude des " +
        "deux pedigrees. Un identifiant inconnu ou mal formé : 404 nommant le paramètre ; le même équidé deux fois : 400. Le sexe n'est pas vérifié."
    })),
    HttpApiEndpoint.get("etalons", "/v1/accouplements/etalons", {
      query: etalonsQuery.fields,
      success: Etalons,
      error: Introuvable
    }).annotateMerge(discoveryKey("choix_etalon", {
      after: "accouplement",
      parameters: ["mere", ...FILTER_PARAMETERS.filter((name) => name !== "sexe"), "coefficient_max", "limite", "offset"]
    }))
      .annotateMerge(onWorkers("etalons"))
      // One indirect pass over the whole pedigree per request: held to the targets of a whole-pedigree
      // computation; every male as a candidate, and one breed's (issue 28's two targets).
      .annotateMerge(benchPlan({ requests: [{ kind: "deep" }, { name: "une race", query: { race: "{race}" }, kind: "deep" }] }))
      .annotateMerge(example(({ data, mating }) => {
        if (mating === undefined || foldValue(sexeOf(data, mating.mere)) !== foldValue("Femelle")) return undefined
        const mere = idOf(data, mating.mere)
        const race = raceOf(data, mating.mere)
        const url = `/v1/accouplements/etalons?mere=${mere}${race === "" ? "" : `&race=${encodeURIComponent(race)}`}&limite=3`
        const query = { mere, ...(race === "" ? {} : { race: [race] }), limite: 3 } as EtalonsQuery
        return { url, execution: { endpoint: "etalons", mere: mating.mere, query, url } }
      }, { after: "accouplement" }))
      .annotateMerge(bytesEstimate((query) => ROW_BYTES.etalon * intOr(query.limite, DEFAULT_LIMITE, MIN_LIMITE, MAX_LIMITE)))
      .annotateMerge(documented(etalonsQuery))
      // A page of stallions unrelated to the mare, read off the thread's order of the males with offspring (3 ms at full
      // scale, the common case); a page that needs her row (coefficient_max, a page past the unrelated ones) up to 25 ms
      // (docs/decisions.md, "Stallions for a mare: cost").
      .annotateMerge(executionCost(5))
      .annotateMerge(OpenApi.annotations({
      summary: "Choisir un étalon pour une jument",
      description:
        "Chaque étalon (sexe Male) retenu par les filtres de la liste, classé par le F du poulain sur toutes les générations connues (méthode indirecte " +
        "de Colleau, un passage pour tous), avec sa parenté moyenne avec la population de référence de la race de la jument et ses produits connus. " +
        "mere absente : 400 ; inconnue : 404 ; pas Femelle : 400 ; sexe donné : 400 (les candidats sont les étalons). Définitions : /documentation#consanguinite."
    }))
  )
  .middleware(Disponibilite)
  .annotateMerge(OpenApi.annotations({ title: "consanguinite", description: "Consanguinité : équidé, accouplement envisagé" }))
{}
