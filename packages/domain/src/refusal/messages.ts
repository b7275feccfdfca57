/**
 * The French text of every refusal of a parameter or a method, written once: the query engine,
 * the server's validation of decoded parameters, its answers outside any route and the pages all
 * say a refusal with these functions.
 */
import { quote } from "./hints.ts"

/** « Une valeur vide n'est pas admise pour race. » or « La valeur « Xyz » n'est pas admise pour race. » */
export const valueNotAdmitted = (parametre: string, value: string, expected?: string): string =>
  value.trim() === ""
    ? `Une valeur vide n'est pas admise pour ${parametre}.`
    : `La valeur ${quote(value)} n'est pas admise pour ${parametre}${expected === undefined ? "" : ` (attendu : ${expected})`}.`

/** « Le paramètre limit n'est pas admis par cette route. » */
export const parameterNotAdmitted = (parametre: string): string => `Le paramètre ${parametre} n'est pas admis par cette route.`

export const NAMELESS_PARAMETER = "Un paramètre sans nom n'est pas admis."

export const parameterRequired = (parametre: string): string => `Le paramètre ${parametre} est obligatoire.`

export const parameterRepeated = (parametre: string): string => `Le paramètre ${parametre} ne peut figurer qu'une fois dans la requête.`

/** « La valeur « 2,5 » n'est pas un entier pour generations. » */
export const notAnInteger = (parametre: string, value: string): string => `La valeur ${quote(value)} n'est pas un entier pour ${parametre}.`

/** `attendu : un entier de 1 à 100` */
export const expectedHint = (expected: string): string => `attendu : ${expected}`

/** « La méthode DELETE n'est pas admise : le service est en lecture seule. » (CONNECT: not a tunnel either) */
export const methodNotAdmitted = (method: string): string =>
  `La méthode ${method} n'est pas admise : le service est en lecture seule${method === "CONNECT" ? " et ne sert pas de tunnel" : ""}.`
