/**
 * The explorer's static files: the style sheet (shared with `/documentation`), the search box's
 * script and the icon. Each is served under a name carrying a hash of its bytes, so it can be cached
 * for a year (`IMMUTABLE_POLICY`) and a new version is a new URL; pages link the current names.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { faviconIco } from "./favicon.ts"
import { PEDIGREE_MAX_ROWS } from "./pedigreeGrid.ts"

export interface Asset {
  /** The hashed file name, e.g. `explorer.1a2b3c4d5e.css`. */
  readonly name: string
  readonly contentType: string
  readonly body: Uint8Array
}

const utf8 = new TextEncoder()

const hashed = (base: string, extension: string, contentType: string, body: Uint8Array): Asset => ({
  name: `${base}.${createHash("sha256").update(body).digest("hex").slice(0, 12)}.${extension}`,
  contentType,
  body
})

const source = (file: string): string => readFileSync(new URL(`./static/${file}`, import.meta.url), "utf8")

/**
 * Placement classes of the pedigree grid (`pedigreeGrid.ts`): a column per generation, a start row
 * and a span per cell. Classes, not `style` attributes: the policy forbids inline styles.
 */
const pedigreeRules = (): string => {
  const rules: Array<string> = []
  for (let g = 0; 2 ** g <= PEDIGREE_MAX_ROWS; g++) {
    rules.push(`.pedigree .c${g}{grid-column:${g + 1}}`, `.pedigree .s${2 ** g}{grid-row-end:span ${2 ** g}}`)
  }
  for (let row = 1; row <= PEDIGREE_MAX_ROWS; row++) rules.push(`.pedigree .r${row}{grid-row-start:${row}}`)
  return `@media (min-width:48.01rem){${rules.join("")}}\n`
}

export const STYLESHEET: Asset = hashed("explorer", "css", "text/css; charset=utf-8", utf8.encode(source("explorer.css") + pedigreeRules()))
export const SCRIPT: Asset = hashed("explorer", "js", "text/javascript; charset=utf-8", utf8.encode(source("explorer.js")))
export const FAVICON_ICO: Uint8Array = faviconIco()

export const ASSETS_PREFIX = "/explorer/static/"

/** The URL a page links. */
export const assetUrl = (asset: Asset): string => `${ASSETS_PREFIX}${asset.name}`

const BY_NAME: ReadonlyMap<string, Asset> = new Map([STYLESHEET, SCRIPT].map((asset) => [asset.name, asset]))

/** The asset a file name under `/explorer/static/` names, if it is a current one. */
export const assetNamed = (name: string): Asset | undefined => BY_NAME.get(name)
