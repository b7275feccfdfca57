/**
 * Group `genetique`: the whole registry's genetics (issue 27), one horse over all its known
 * generations and a breed's inbreeding by birth year with its reference population's diversity,
 * with the definitions the documentation page prints (design §6, word for word).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { dictionarySize } from "../dataset/columns.ts"
import { Genetique, StatsGenetique } from "../schemas/genetique.ts"
import { bytesEstimate, ROW_BYTES } from "./bytesEstimate.ts"
import { discoveryKey } from "./discoveryPlace.ts"
import { idPath } from "./equides.ts"
import { executionCost } from "./executionCost.ts"
import { Disponibilite } from "./middleware.ts"
import { documented, NoQuery } from "./params.ts"
import { Introuvable } from "./problems.ts"
import { genetiqueQuery } from "./queries.ts"
import { example } from "./routeExample.ts"
import { onWorkers } from "./workers.ts"
import { benchPlan } from "./benchPlan.ts"

/** Kept where it was first declared, for those who import it from here (it lives in `queries.ts`). */
export { genetiqueQuery }

/** Design §6's definitions, in French, for `/documentation` (one paragraph each, with references). */
export const DEFINITIONS_GENETIQUE: ReadonlyArray<readonly [string, string]> = [
  [
    "Le graphe",
    "Les parents d'une fiche sont ses liens résolus (pere, mere dont la fiche est dans l'extrait) ; un lien pendant est un parent inconnu ; " +
    "un lien qui fermerait un cycle est ignoré, comme pour la consanguinité. Chaque chiffre est calculé sur toutes les générations connues."
  ],
  [
    "F_i (Wright)",
    "La probabilité que deux allèles de i soient identiques par descendance ; F_i = f(s, d), la parenté (coefficient de parenté) de ses parents ; " +
    "0 quand un parent est inconnu. Calculé pour chaque fiche au chargement par la méthode indirecte de Colleau (2002) modifiée par Sargolzaei, " +
    "Iwaisaki et Colleau (2005), servi avec 7 chiffres significatifs."
  ],
  [
    "Générations",
    "t_i, générations complètes équivalentes (Maignel et al. 1996) : t_i = Σ sur les parents connus p de (1 + t_p)/2, soit Σ sur chaque apparition " +
    "d'un ancêtre connu de (1/2)^g. Générations complètes : la plus grande g telle que les 2^g ancêtres de la génération g soient tous connus. " +
    "Plus longue lignée (generations_max) : la génération de l'ancêtre connu le plus lointain."
  ],
  [
    "ΔF_i et Ne",
    "ΔF_i, accroissement individuel de consanguinité (Gutiérrez et al. 2008, 2009) : ΔF_i = 1 − (1 − F_i)^(1/(t_i − 1)), défini seulement quand t_i > 1. " +
    "Ne d'un groupe (une année de naissance d'une race) : Ne = 1 / (2 · moyenne des ΔF_i) sur ses membres de t_i > 1 ; null quand cette moyenne est nulle ou non définie."
  ],
  [
    "Population de référence",
    "Les fiches dont la race se replie (comme pour le filtre race) sur celle de la race, nées dans les 5 années Y−4..Y, où Y est l'année de naissance " +
    "la plus récente de la race qui ne dépasse pas l'année du chargement (celle d'ingere_le). Sans race : tout l'extrait, même règle."
  ],
  [
    "Parenté moyenne",
    "parente_moyenne : moyenne de f(i, j) sur les j de la population de référence, avec f(i, i) = (1 + F_i)/2 quand i en fait partie. Un passage de la " +
    "méthode indirecte de Colleau (A·x = T·D·Tᵀ·x) la donne pour toutes les fiches à la fois."
  ],
  [
    "Fondateurs, f_e",
    "On place 1/N sur chaque membre de la population de référence ; du plus jeune au plus ancien, chaque animal passe la moitié de ce qu'il tient à chaque " +
    "parent connu. Un animal aux deux parents inconnus est un fondateur et garde ce qu'il a reçu ; un animal à un parent inconnu passe la moitié au parent " +
    "connu, et l'autre moitié fait de son parent inconnu un fondateur à part entière (un fantôme). f_e = 1 / Σ q_k² sur les fondateurs."
  ],
  [
    "Ancêtres, f_a",
    "(Boichard, Maignel et Verrier 1997) Les ancêtres sont les animaux dont descend un membre de la population de référence (un membre compte quand il est " +
    "parent d'un autre) ; on choisit un à un l'ancêtre de plus grande contribution marginale (sa contribution non encore expliquée par les ancêtres choisis " +
    "avant), au plus 1 000 ou jusqu'à ce que la part non expliquée passe sous 0,1 % ; f_a = 1 / Σ p_k². Le premier choisi est l'ancêtre de plus grande " +
    "contribution brute. Des contributions égales à 10⁻⁹ près vont à l'ancêtre le plus ancien. f_a est d'ordinaire inférieur à f_e, sans que ce soit garanti : " +
    "quand un ancêtre choisi réunit une part de deux fondateurs que l'on choisit ensuite pour le reste de leurs gènes, la part de chacun est coupée en " +
    "deux et f_a peut dépasser f_e (un étalon issu de deux fondateurs, 8 produits, chacun de ses parents 3 autres produits, tous d'accouplements avec " +
    "des fondateurs : f_e = 7, f_a = 49/6 ≈ 8,17, par la procédure même de Boichard et al.)."
  ],
  [
    "Intervalle de génération",
    "Moyenne de (année de naissance de l'enfant − année de naissance du parent) sur chaque paire (membre de la population de référence, parent connu) " +
    "dont les deux années sont connues."
  ]
]

export class GenetiqueApi extends HttpApiGroup.make("genetique")
  .add(
    HttpApiEndpoint.get("equide", "/v1/equides/:id/genetique", {
      params: idPath.fields,
      query: NoQuery,
      success: Genetique,
      error: Introuvable
    }).annotateMerge(discoveryKey("genetique"))
      .annotateMerge(onWorkers("genetique/equide"))
      // A breed's reference (one indirect pass, 0.06–0.3 s at full scale) is made on its first use: on the hard
      // extract, whose race values are mostly distinct, nearly every record's first request would be one.
      .annotateMerge(benchPlan({ firstUsePer: "race" }))
      .annotateMerge(example(({ id, row }) => ({ url: `/v1/equides/${id}/genetique`, execution: { endpoint: "genetique", request: { kind: "equide", row } } }), {
        after: "consanguinite",
        // And a horse of a breed the Dataset does not hold (the subject's is held): the path that makes the breed's
        // reference and shares in the thread, which each worker's first request of such a breed otherwise compiled
        // (issue 24 item 6).
        warms: ({ unheldBreed }) => {
          const row = unheldBreed()
          return row === undefined ? [] : [{ endpoint: "genetique", request: { kind: "equide", row } }]
        }
      }))
      .annotateMerge(documented(idPath))
      // A lookup of the load's columns once the breed's reference is made (one indirect pass per breed and
      // thread, 0.06–0.3 s at full scale, then kept): the lookup is what most requests cost.
      .annotateMerge(executionCost(0.5))
      .annotateMerge(OpenApi.annotations({
      summary: "Génétique d'un équidé sur toutes ses générations",
      description:
        "F sur toutes les générations connues, générations équivalentes, complètes et plus longue lignée, accroissement individuel ΔF, parenté moyenne " +
        "avec la population de référence de sa race et cette référence. Définitions : /documentation#genetique."
    })),
    HttpApiEndpoint.get("stats", "/v1/stats/genetique", {
      query: genetiqueQuery.fields,
      success: StatsGenetique
    }).annotateMerge(discoveryKey("genetique_race", { after: "repartition" }))
      .annotateMerge(onWorkers("genetique/stats"))
      .annotateMerge(example(({ race }) => ({
        url: `/v1/stats/genetique${race === undefined ? "" : `?race=${encodeURIComponent(race)}`}`,
        execution: { endpoint: "genetique", request: { kind: "stats", query: race === undefined ? {} : { race: [race] } } }
      }), {
        after: "repartition",
        // The whole extract's figures, the route's plain URI: its year table is a pass over every record (0.15 s per
        // worker at full scale), which the first request paid on each worker (issue 24 item 6); its f_e and f_a are
        // held from the load. Then kept by the thread (`statsGenetique`'s answers).
        warms: () => [{ endpoint: "genetique", request: { kind: "stats", query: {} } }],
        exampleNotWarmed:
          "a breed's first use runs its year figures and its f_e, f_a over its ancestry (0.03–0.26 s per worker at full scale): every race " +
          "spelling is a breed (359 242 on the hard extract), so no warm-up covers them, and each one warmed adds its time to every worker's " +
          "start (docs/decisions.md)"
      }))
      .annotateMerge(bytesEstimate((_, data) => ROW_BYTES.statsGenetique + ROW_BYTES.anneeGenetique * dictionarySize(data.annee.values)))
      .annotateMerge(documented(genetiqueQuery))
      // Priced at a new (race, years) pair's first use, which any caller can cause by changing the years: a
      // selection and a scan of its rows, 8–38 ms of CPU for a breed at full scale (Trotteur Francais, the largest,
      // all years: 38 ms), then kept (0.1 ms). Not priced: a breed's f_e/f_a, once per breed and thread (0.03–0.26 s);
      // the whole extract's new pairs (13–200 ms), above what one unit-priced request may cost (the burst, 100 ms).
      .annotateMerge(executionCost(40))
      .annotateMerge(OpenApi.annotations({
      summary: "Consanguinité et diversité d'une race",
      description:
        "Par année de naissance de la sélection (race, annee_min, annee_max) : effectif, F moyen, parts consanguines, générations équivalentes, ΔF moyen, " +
        "taille efficace Ne ; pour la population de référence de la race (tout l'extrait sans race) : fondateurs et ancêtres efficaces, intervalle de génération, " +
        "20 principaux ancêtres. annee_min > annee_max : 400. Définitions : /documentation#genetique."
    }))
  )
  .middleware(Disponibilite)
  .annotateMerge(OpenApi.annotations({ title: "genetique", description: "Génétique du registre : un équidé, une race" }))
{}
