/**
 * The problem types of the API (design 3): one RFC 9457 problem class per type, served as
 * `application/problem+json`. `type` is relative (`/documentation#erreur-…`): a client resolves it
 * against the request URI and lands on the matching section of the documentation page, whose
 * anchors are the `anchor`s below. `title` is fixed per type; `detail` explains the occurrence.
 *
 * Extensions: `parametre` (the faulty parameter), `indice` (a hint: nearest parameter name,
 * admitted values, the reference list to consult), `documentation` (a URL to read).
 */
import * as Schema from "effect/Schema"
import { HttpApiError } from "effect/http-api"

const extensions = {
  detail: Schema.String.annotate({ description: "Explication propre à cette occurrence" }),
  parametre: Schema.optionalKey(Schema.String.annotate({ description: "Le paramètre en faute, quand l'erreur en nomme un" })),
  indice: Schema.optionalKey(
    Schema.String.annotate({
      description: "Indication : nom de paramètre le plus proche, valeurs admises, référentiel à consulter"
    })
  ),
  documentation: Schema.optionalKey(Schema.String.annotate({ description: "URL de la documentation utile" }))
}

/** The page whose sections the problem types point to. */
export const DOCUMENTATION_PATH = "/documentation"

const typeOf = <const A extends string>(anchor: A): `/documentation#${A}` => `${DOCUMENTATION_PATH}#${anchor}`

export class ParametreInvalide extends HttpApiError.Problem<ParametreInvalide>()("ParametreInvalide", {
  type: typeOf("erreur-parametre-invalide"),
  status: 400,
  title: "Paramètre invalide"
}, extensions, { identifier: "ProblemeParametreInvalide" }) {}

export class RequeteInvalide extends HttpApiError.Problem<RequeteInvalide>()("RequeteInvalide", {
  type: typeOf("erreur-requete-invalide"),
  status: 400,
  title: "Requête invalide"
}, extensions, { identifier: "ProblemeRequeteInvalide" }) {}

/** Same type and title as RequeteInvalide: a method the route does not serve (405, with `Allow`). */
export class MethodeNonAdmise extends HttpApiError.Problem<MethodeNonAdmise>()("MethodeNonAdmise", {
  type: typeOf("erreur-requete-invalide"),
  status: 405,
  title: "Requête invalide"
}, extensions, { identifier: "ProblemeMethodeNonAdmise" }) {}

export class Introuvable extends HttpApiError.Problem<Introuvable>()("Introuvable", {
  type: typeOf("erreur-introuvable"),
  status: 404,
  title: "Ressource introuvable"
}, extensions, { identifier: "ProblemeIntrouvable" }) {}

/**
 * One body for an unknown id and a malformed one alike (design 3): nothing of the id is echoed.
 * Shared by admission (a non-canonical id), the handlers and the explorer's pages.
 */
export const equideNotFound = new Introuvable({ detail: "Aucun équidé ne porte cet identifiant dans le jeu de données servi." })

/**
 * The refusals of a mating's parents (`/v1/accouplements`, `/v1/accouplements/etalons`), shared by
 * the handlers and the explorer's pages. A parent that matches no record: the 404 names the parameter.
 */
export const parentNotFound = (parametres: ReadonlyArray<"pere" | "mere">) =>
  new Introuvable({
    detail: parametres.length === 2
      ? "Aucun équidé ne porte l'identifiant donné pour pere, ni celui donné pour mere, dans le jeu de données servi."
      : `Aucun équidé ne porte l'identifiant donné pour ${parametres[0]} dans le jeu de données servi.`,
    parametre: parametres[0]
  })

export const sameParent = new ParametreInvalide({
  detail: "pere et mere désignent le même équidé : un accouplement joint deux individus distincts.",
  parametre: "mere",
  indice: "Donner pour mere un autre identifiant que pour pere."
})

export const notAMare = (sexe: string) =>
  new ParametreInvalide({
    detail: `mere désigne un équidé de sexe ${sexe === "" ? "non renseigné" : sexe} : les étalons se classent pour une jument (sexe Femelle).`,
    parametre: "mere",
    indice: "Donner pour mere l'identifiant d'une fiche de sexe Femelle."
  })

export class TropDeRequetes extends HttpApiError.Problem<TropDeRequetes>()("TropDeRequetes", {
  type: typeOf("erreur-trop-de-requetes"),
  status: 429,
  title: "Trop de requêtes"
}, extensions, { identifier: "ProblemeTropDeRequetes" }) {}

export class ServiceSurcharge extends HttpApiError.Problem<ServiceSurcharge>()("ServiceSurcharge", {
  type: typeOf("erreur-service-surcharge"),
  status: 503,
  title: "Service momentanément indisponible"
}, extensions, { identifier: "ProblemeServiceSurcharge" }) {}

/** Every problem the API can answer with. */
export type ProblemeApi =
  | ParametreInvalide
  | RequeteInvalide
  | MethodeNonAdmise
  | Introuvable
  | TropDeRequetes
  | ServiceSurcharge

/** One section of the documentation page per problem type, in this order. */
export interface ProblemType {
  /** The anchor (`id`) of the section, and the fragment of `type`. */
  readonly anchor: string
  readonly title: string
  readonly statuses: ReadonlyArray<number>
  /** When it happens and what to do, in French (plain text). */
  readonly explanation: string
}

export const PROBLEM_TYPES: ReadonlyArray<ProblemType> = [
  {
    anchor: "erreur-parametre-invalide",
    title: "Paramètre invalide",
    statuses: [400],
    explanation:
      "Un paramètre de la requête n'est pas admis par la route (paramètre inconnu, jamais ignoré), manque alors qu'il est obligatoire, " +
      "ou porte une valeur refusée : entier attendu, valeur hors bornes, valeur absente du référentiel, valeur vide. " +
      "Le champ parametre nomme le paramètre en faute ; indice propose le nom le plus proche et la liste des paramètres admis, " +
      "ou les valeurs admises, ou le référentiel à consulter."
  },
  {
    anchor: "erreur-requete-invalide",
    title: "Requête invalide",
    statuses: [400, 405, 408, 417, 431],
    explanation:
      "La requête elle-même ne peut pas être servie : méthode autre que GET, HEAD ou OPTIONS (405, l'en-tête Allow donne les méthodes admises), " +
      "requête mal formée (400 : syntaxe HTTP, en-tête Host absent ou répété, encodage-pourcent invalide dans le chemin), " +
      "requête reçue trop lentement (408), en-tête Expect autre que 100-continue (417), " +
      "ou ligne de requête et en-têtes trop longs (431 : au plus 16 Kio en tout)."
  },
  {
    anchor: "erreur-introuvable",
    title: "Ressource introuvable",
    statuses: [404],
    explanation:
      "Aucune route ne correspond au chemin demandé, ou l'identifiant d'équidé est inconnu ou mal formé. " +
      "Un chemin non canonique (segment vide, barre oblique finale, caractère encodé en %XX) n'est jamais servi : indice donne le chemin canonique. " +
      "Un identifiant inconnu et un identifiant mal formé reçoivent exactement la même réponse."
  },
  {
    anchor: "erreur-trop-de-requetes",
    title: "Trop de requêtes",
    statuses: [429],
    explanation:
      "Le quota de l'adresse appelante est épuisé. L'en-tête Retry-After donne le délai d'attente en secondes avant de réessayer."
  },
  {
    anchor: "erreur-service-surcharge",
    title: "Service momentanément indisponible",
    statuses: [503],
    explanation:
      "Le service ne peut pas traiter la requête pour l'instant : capacité simultanée atteinte, délai maximal dépassé, " +
      "ou données non chargées. L'en-tête Retry-After donne le délai d'attente en secondes."
  }
]
