/**
 * One URI per resource (docs/decisions.md, "Request target"): a path the router would serve under
 * another spelling than its canonical one, or a request target whose percent-encoding does not
 * decode, is refused instead of being answered as a silent alias under its own ETag.
 *
 * - Empty segments (`//v1/meta`, `/v1//search`), a trailing slash (`/v1/meta/`) and any
 *   percent-escape in the path (`/v1/%6Deta`: every served path is made of unreserved characters
 *   only) → 404 `#erreur-introuvable` naming the path, with the canonical path in `indice` when
 *   that one is served; an escaped id (`/v1/equides/%41…`) is a malformed id, answered as an
 *   unknown one (design 3: one identical body for both).
 * - A `%` not followed by two hexadecimal digits, or escapes that are not UTF-8 (`%C0%AE`
 *   overlong, `%ED%A0%80` a surrogate, `%E9` alone) → 400: `#erreur-parametre-invalide` naming the
 *   parameter when it is in the query, `#erreur-requete-invalide` when it is in the path.
 *
 * Costs a scan of the path and, only when the target holds a `%`, a decoding attempt.
 */
import { equideNotFound as unknownId, Introuvable, ParametreInvalide, type ProblemeApi, RequeteInvalide } from "@equides/domain"

const decodes = (text: string): boolean => {
  try {
    decodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

/** The path with empty segments and the trailing slash removed. */
const canonicalPath = (path: string): string => {
  const segments = path.split("/").filter((segment) => segment !== "")
  return `/${segments.join("/")}`
}

/** A query piece (`name=value`) whose encoding does not decode, named by its parameter. */
const badParameter = (query: string): string | undefined => {
  for (const piece of query.split("&")) {
    if (!piece.includes("%") || decodes(piece)) continue
    const eq = piece.indexOf("=")
    const name = eq < 0 ? piece : piece.slice(0, eq)
    return decodes(name) ? decodeURIComponent(name.replaceAll("+", " ")) : "query"
  }
  return undefined
}

/**
 * The problem a request target gets before any routing, or undefined when it is canonical.
 * `templateOf` gives the route template serving a (canonical) path, if any.
 */
export const targetProblem = (url: string, templateOf: (path: string) => string | undefined): ProblemeApi | undefined => {
  const q = url.indexOf("?")
  const path = q < 0 ? url : url.slice(0, q)
  const escaped = path.includes("%")
  if (escaped && !decodes(path)) {
    return new RequeteInvalide({
      detail: "Le chemin contient un encodage-pourcent invalide (« % » suivi de deux chiffres hexadécimaux formant de l'UTF-8 attendu).",
      indice: "encoder chaque octet UTF-8 en %XX, jamais d'octet isolé ni de forme non minimale"
    })
  }
  // A trailing slash is refused unless the path is served with it (the explorer's home, `/explorer/`).
  if (escaped || path.includes("//") || (path.length > 1 && path.endsWith("/") && templateOf(path) !== path)) {
    const canonical = canonicalPath(escaped ? decodeURIComponent(path) : path)
    const template = templateOf(canonical)
    if (escaped && template?.startsWith("/v1/equides/:id") === true) return unknownId
    return new Introuvable({
      detail: `Le chemin « ${path.slice(0, 200)} » n'est pas canonique (segment vide, barre oblique finale ou caractère encodé) : aucune ressource n'y est servie.`,
      indice: template !== undefined ? `chemin canonique : ${canonical}` : "GET / publie les routes servies et les gabarits d'URL",
      documentation: "/documentation"
    })
  }
  if (q >= 0 && url.includes("%", q)) {
    const parametre = badParameter(url.slice(q + 1))
    if (parametre !== undefined) {
      return new ParametreInvalide({
        detail: `Le paramètre ${parametre} contient un encodage-pourcent invalide.`,
        parametre,
        indice: "encoder chaque octet UTF-8 en %XX (par exemple é en %C3%A9), jamais d'octet isolé ni de forme non minimale"
      })
    }
  }
  return undefined
}
