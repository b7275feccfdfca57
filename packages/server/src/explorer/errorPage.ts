/** What a person gets instead of a problem document: the same title, detail and hint, as a page. */
import type { Meta, ProblemeApi } from "@equides/domain"
import { type Html, html } from "./html.ts"
import { EXPLORER_HOME } from "./paths.ts"
import { layout } from "./layout.ts"

export const errorPage = (meta: Meta, problem: ProblemeApi, json: string): Html =>
  layout(meta, {
    title: problem.title,
    json,
    body: html`<h1>${problem.title}</h1>
<p>${problem.detail}</p>
${problem.indice === undefined ? "" : html`<p class="muted">${problem.indice}</p>`}
<p><a href="${EXPLORER_HOME}">Retour à la recherche</a></p>`
  })
