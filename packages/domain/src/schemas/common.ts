/**
 * Building blocks shared by the response schemas: identifiers, sexes, counts, years.
 *
 * Conventions (design 1.3): an optional field the data lacks is omitted, never `null`; a required
 * string the source lacks is served as `""`. Schemas are `Schema.Struct`s so that query functions
 * return plain objects, and every resource schema carries an `identifier` (its OpenAPI component
 * name, the resource's name in the spec); the small blocks below carry none, so that they cannot
 * clash with another module's component names.
 */
import * as Schema from "effect/Schema"
import { SEXES } from "../vocabulary.ts"

/** The registry's official identifier: a UUID as 16 bytes in unpadded base64url (22 characters). */
export const IdentifiantEquide = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{21}[AQgw]$/u)).annotate({
  description: "Identifiant officiel du registre : 22 caractères base64url (URL-safe), le même que dans l'URL de la fiche publique",
  examples: ["Z4ogLhlkS2CeUdq0bZ0YFw"]
})

/**
 * `Femelle`, `Male`, `Hongre` or `Indeter`. Named `SexeSchema` because the type `Sexe` is already
 * exported by the vocabulary (the same union).
 */
export const SexeSchema = Schema.Literals(SEXES).annotate({ description: "Sexe : Femelle, Male, Hongre ou Indeter" })

/** A count: integer ≥ 0. */
export const Effectif = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** A birth year as the source gives it (aberrant years included, so no bounds). */
export const Annee = Schema.Int.annotate({ description: "Année de naissance, telle que donnée par la source" })
