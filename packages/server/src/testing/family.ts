/**
 * The server tests' family of records: a sire with offspring over three generations, a dangling
 * dam, a record without birth year, trotters; one URI per route valid over them.
 */
import type { SourceRecord } from "@equides/domain"
import { idN } from "@equides/domain/testing"
import * as Schema from "effect/Schema"

export const SIRE = idN(1)
export const DAM = idN(2)
export const SON = idN(3)
export const GELDING = idN(4)
export const DAUGHTER = idN(5)
export const GRANDSON = idN(6)
export const TROTTER = idN(7)
export const MARE = idN(8)
/** Referenced as a dam, absent from the records: a dangling link. */
export const ABSENT = idN(99)


/** Decodes strictly: a field the schema does not know fails too. */
export const shape = <S extends Schema.Top>(schema: S, value: unknown): S["Type"] =>
  Schema.decodeUnknownSync(schema as any)(value, { onExcessProperty: "error" }) as S["Type"]

/** One URI per route of the spec and of the consanguinity, genetics, progeny and stallion-ranking issues, plus the documentation page, each valid over FAMILY. */
export const EVERY_ROUTE: ReadonlyArray<string> = [
  "/",
  "/healthz",
  "/readyz",
  "/openapi.json",
  "/documentation",
  "/v1/meta",
  "/v1/equides",
  `/v1/equides/${SIRE}`,
  `/v1/equides/${SIRE}/pedigree`,
  `/v1/equides/${SIRE}/descendance`,
  `/v1/equides/${SIRE}/descendance/statistiques`,
  `/v1/equides/${SON}/consanguinite`,
  `/v1/accouplements?pere=${SON}&mere=${DAUGHTER}`,
  `/v1/accouplements/etalons?mere=${DAUGHTER}`,
  `/v1/equides/${SON}/genetique`,
  "/v1/stats/genetique?race=Selle%20Francais",
  "/v1/search?q=jap",
  "/v1/referentiels/races",
  "/v1/stats",
  "/v1/stats/repartition",
  "/v1/stats/reproducteurs?code=ISO&produits_min=1"
]

const isoIndex = { code: "ISO", valeur: "+150", coefficient: 0.9, annee: 1988, appreciation: "indice-excellent" }

export const FAMILY: ReadonlyArray<SourceRecord> = [
  {
    id: SIRE, nom: "JAPPELOUP DE LUZE", slug: "jappeloup-de-luze", race: "Selle Francais", sexe: "Male", robe: "Bai",
    annee_naissance: 1975, statut_reproducteur: "Etalon Actif",
    performances: [{ discipline: "SAUT D'OBSTACLES", texte: "ISO +150 (0.9)", indices: [isoIndex] }]
  },
  { id: DAM, nom: "VENISE", race: "Selle Francais", sexe: "Femelle", robe: "Alezan", annee_naissance: 1978, statut_reproducteur: "Pouliniere" },
  {
    id: SON, nom: "QUAPRICE BOIMARGOT", race: "Selle Francais", sexe: "Male", robe: "Bai", annee_naissance: 2000,
    filiation_texte: "Par JAPPELOUP DE LUZE et VENISE",
    pere: { id: SIRE, nom: "JAPPELOUP DE LUZE", race: "SF" }, mere: { id: DAM, nom: "VENISE", race: "SF" }
  },
  {
    id: GELDING, nom: "JAPPELOUP II", race: "Selle Francais", sexe: "Hongre", robe: "Gris", annee_naissance: 2002,
    pere: { id: SIRE, nom: "JAPPELOUP DE LUZE", race: "SF" }, mere: { id: ABSENT, nom: "DISPARUE", race: "SF" }
  },
  { id: DAUGHTER, nom: "ÉCLAIR DU BOIS", race: "Selle Francais", sexe: "Femelle", pere: { id: SIRE, nom: "JAPPELOUP DE LUZE", race: "SF" } },
  {
    id: GRANDSON, nom: "ROCK AND ROLL", race: "Selle Francais", sexe: "Male", robe: "Bai", annee_naissance: 2010,
    pere: { id: SON, nom: "QUAPRICE BOIMARGOT", race: "SF" }
  },
  {
    id: TROTTER, nom: "BOLD EAGLE", race: "Trotteur Francais", sexe: "Male", robe: "Bai", annee_naissance: 2011,
    performances: [{ discipline: "TROT COURSE", texte: "BTR +59 (0.35)", indices: [{ code: "BTR", valeur: "+59", coefficient: 0.35, annee: 2024 }] }]
  },
  { id: MARE, nom: "ÉCLIPSE", race: "Trotteur Francais", sexe: "Femelle", robe: "Noir", annee_naissance: 2011 }
]
