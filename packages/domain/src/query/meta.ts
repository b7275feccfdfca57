/** Provenance, reuse regime and data quality (`GET /v1/meta`). */
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { Meta } from "../schemas/service.ts"
import { URL_FICHE_MODELE } from "./record.ts"

/** Version of the API and of its description: `version_api` (meta), `version` (discovery, probes). */
export const API_VERSION = "1.1.1"

/** The source to cite in any reuse. */
export const SOURCE_DONNEES = "IFCE — SIRE, fiches publiques infochevaux.ifce.fr"

/** Producer of the source data. */
export const PRODUCTEUR_DONNEES = "Institut français du cheval et de l'équitation (IFCE), Système d'information relatif aux équidés (SIRE)"

/**
 * Reuse regime stated by the service. ASSUMPTION: the regime of French public-sector information
 * published by a public body (Licence Ouverte / Open Licence 2.0, Etalab); the service has no
 * agreement with the registry, and the conditions published by the source prevail (see remarques).
 */
export const LICENCE_DONNEES = "Licence Ouverte / Open Licence 2.0 (Etalab)"

/** The text of that licence. */
export const LICENCE_DONNEES_URL = "https://www.etalab.gouv.fr/licence-ouverte-open-licence/"

/** Remarks on the data, its reuse regime and its known defects. */
export const REMARQUES: ReadonlyArray<string> = [
  "Ces données sont une copie, obtenue par collecte automatique, des fiches publiques du registre ; ce service est indépendant de l'IFCE et du SIRE. Seules les fiches en ligne du registre font foi.",
  "Toute réutilisation doit citer la source (champ « source ») et la date de mise à jour (champ « ingere_le »).",
  "Licence indiquée : régime supposé des informations publiques diffusées par la source (Licence Ouverte 2.0) ; les conditions publiées par la source prévalent.",
  "Les données sont reproduites telles quelles : leurs défauts sont comptés dans « anomalies » et non corrigés.",
  "Le champ « race » des fiches est parfois pollué : certaines fiches y portent un temps de course (ex. 1'10\"2 (ASC6H)) au lieu d'une race.",
  "La race d'un parent (pere, mere, pere_de_mere) est celle déclarée sur le lien de filiation, dans une autre nomenclature abrégée (référentiel « races_lien ») que le champ « race » des fiches ; le filtre race ne l'accepte pas.",
  "Certains parents sont référencés mais absents du fichier (« parents_pendants ») : ils sont servis sans identifiant, avec « fiche_disponible » à false, et un pedigree s'arrête à eux.",
  "Une valeur présente mais inutilisable n'est jamais réécrite : un texte qui n'est pas de l'UTF-8 valide (« textes_invalides ») ou une valeur d'un autre type JSON que celui du champ (« types_invalides ») est servi comme absent et compté dans « anomalies ».",
  "Certaines années de naissance sont aberrantes (ex. 193) ; elles sont conservées et comptées dans annee_naissance_min/max.",
  "« Sans performances » signifie seulement qu'aucun indice n'est publié, non que l'équidé n'a jamais couru ni concouru.",
  "Aucune donnée personnelle n'est exposée : le nom du naisseur est écarté dès la lecture du fichier."
]

const cache = new WeakMap<DatasetData, Meta>()

/** The Meta document of a Dataset (memoised by identity). */
export const meta = (data: DatasetData): Meta => {
  const known = cache.get(data)
  if (known !== undefined) return known
  const result: Meta = {
    version_api: API_VERSION,
    remarques: REMARQUES,
    jeu_de_donnees: {
      source: SOURCE_DONNEES,
      producteur: PRODUCTEUR_DONNEES,
      licence: LICENCE_DONNEES,
      lignes: data.size,
      ingere_le: data.provenance.ingestedAt,
      empreinte_source: data.provenance.fingerprint,
      url_modele: URL_FICHE_MODELE,
      anomalies: data.anomalies
    }
  }
  cache.set(data, result)
  return result
}
