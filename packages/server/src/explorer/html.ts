/**
 * HTML that is escaped unless said otherwise: every value interpolated into `html\`…\`` is escaped
 * (text and attribute values alike), except fragments that are themselves `Html`. A page is built
 * only from such templates, so a name like `<B> & "C"` from the source can never become markup.
 */

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

/** Text safe in element content and in a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)

/** A fragment of markup already made safe. */
export class Html {
  readonly markup: string
  constructor(markup: string) {
    this.markup = markup
  }
  toString(): string {
    return this.markup
  }
}

/** What may be interpolated: text and numbers (escaped), fragments, lists of them; absent values render nothing. */
export type Interpolated = Html | string | number | undefined | null | false | ReadonlyArray<Interpolated>

const render = (value: Interpolated): string => {
  if (value === undefined || value === null || value === false) return ""
  if (value instanceof Html) return value.markup
  if (typeof value === "number") return String(value)
  if (typeof value === "string") return escapeHtml(value)
  let out = ""
  for (const item of value) out += render(item)
  return out
}

export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Interpolated>): Html => {
  let out = strings[0]
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]
  return new Html(out)
}

/** Markup the caller vouches for (a constant of this code, never data). */
export const trusted = (markup: string): Html => new Html(markup)
