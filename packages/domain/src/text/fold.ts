/**
 * Folding shared by filters, search, sorting and slugs (design 2.2): Unicode NFD, marks stripped,
 * upper case, every character that is not a letter or a digit separates words.
 */
const MARKS = /\p{M}+/gu
const SEPARATORS = /[^\p{L}\p{N}]+/u

/** The folded words of a text, in order, empty words dropped. */
export const foldWords = (text: string): Array<string> => {
  const words = text.normalize("NFD").replace(MARKS, "").toUpperCase().split(SEPARATORS)
  return words.filter((word) => word.length > 0)
}

/** A whole value folded for comparison: `"Selle Français"` and `"SELLE-FRANCAIS"` fold alike. */
export const foldValue = (text: string): string => foldWords(text).join(" ")

/**
 * The registry's slug of a name: folded to ASCII, lower case, runs of other characters turned
 * into one `-`, none leading or trailing (`DALIA AL SHAHANIA` → `dalia-al-shahania`).
 */
export const slugify = (name: string): string =>
  name
    .normalize("NFD")
    .replace(MARKS, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")

const isAsciiAlphanumeric = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)

/**
 * `slug === slugify(name)`, without building the slug: the loader asks it of every record, and
 * most names are plain ASCII. Any other character falls back to `slugify`.
 */
export const isSlugOf = (slug: string, name: string): boolean => {
  let s = 0
  let pendingDash = false
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i)
    if (c >= 128) return slug === slugify(name)
    if (isAsciiAlphanumeric(c)) {
      if (pendingDash && s > 0) {
        if (slug.charCodeAt(s++) !== 45) return false
      }
      pendingDash = false
      const lower = c >= 65 && c <= 90 ? c + 32 : c
      if (slug.charCodeAt(s++) !== lower) return false
    } else {
      pendingDash = true
    }
  }
  return s === slug.length
}
