/**
 * The flat CSV export (design 1.2): one column per scalar field, parent links flattened into
 * `pere_*`, `mere_*`, `pere_de_mere_*`, `performances` as a JSON array in one cell. `naisseur`
 * is a column of the export too: the reader drops it like the JSON Lines reader does.
 */
const LINK_FIELDS = ["id", "nom", "race", "pays", "alias"] as const

export const CSV_COLUMNS = [
  "id",
  "slug",
  "nom",
  "race",
  "sexe",
  "robe",
  "annee_naissance",
  "statut_reproducteur",
  "record",
  "filiation_texte",
  ...LINK_FIELDS.map((field) => `pere_${field}`),
  ...LINK_FIELDS.map((field) => `mere_${field}`),
  ...LINK_FIELDS.map((field) => `pere_de_mere_${field}`),
  "performances",
  "naisseur"
] as const

export { LINK_FIELDS }
