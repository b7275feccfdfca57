/**
 * `GET /documentation/reference`: the interactive reference, Swagger UI (`swagger-ui-dist`, vendored
 * through npm and served from here, no CDN) over `/openapi.json`, with "Try it out" against this
 * same origin. The page, its script and its style sheet are files of this origin, so the page
 * works under `Content-Security-Policy: default-src 'self'` (no inline script or style).
 */
import * as Effect from "effect/Effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { REFERENCE_PATH } from "@equides/domain"
import { refusedParameter } from "./documentation.ts"

/**
 * The reference's policy: every resource from this origin; images also as `data:` URIs (the
 * viewer's style sheet draws its icons so); no plugin, never framed, `<base>` and forms pinned.
 */
export const REFERENCE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "x-frame-options": "DENY"
}

const PAGE = `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Équidés API — référence interactive</title>
<link rel="stylesheet" href="${REFERENCE_PATH}/swagger-ui.css">
<link rel="stylesheet" href="${REFERENCE_PATH}/reference.css">
</head>
<body>
<main id="swagger-ui"><p>Chargement de la référence… Sans JavaScript : <a href="/openapi.json">/openapi.json</a> et <a href="/documentation">/documentation</a>.</p></main>
<script src="${REFERENCE_PATH}/swagger-ui-bundle.js"></script>
<script src="${REFERENCE_PATH}/init.js"></script>
</body>
</html>
`

/**
 * Colours of the viewer that fall short of WCAG AA contrast (4.5:1), darkened; the syntax
 * highlighter's pale red strings on its dark background, lightened (its colours are set on each
 * element, hence `!important`).
 */
const STYLE = `.swagger-ui .opblock.opblock-get .opblock-summary-method{background:#1f5f9e}
.swagger-ui .info .title small{background:#4f5662}
.swagger-ui .info .title small.version-stamp{background:#3b6e00}
.swagger-ui .info a,.swagger-ui .info .url,.swagger-ui .info__license__url a{color:#1f5f9e}
.swagger-ui .btn.authorize,.swagger-ui .btn.authorize span{color:#1d6b45;border-color:#1d6b45}
.swagger-ui .btn.try-out__btn{color:#333;border-color:#333}
.swagger-ui .btn.try-out__btn.cancel{color:#a4001d;border-color:#a4001d}
.swagger-ui .btn.execute{background-color:#1f5f9e;border-color:#1f5f9e}
.swagger-ui .download-contents{background:#4f5662}
.swagger-ui .json-schema-2020-12-expand-deep-button{color:#555}
.swagger-ui .microlight span[style*="211, 99, 99"],.swagger-ui .microlight span[style*="d36363"]{color:#ff9e9e !important}
`

/**
 * Starts the viewer: no call to the viewer's online validator, "Try it out" for GET and HEAD, no
 * deep links (a link inside each operation's toggle button is a control nested in a control).
 * Then, as the viewer renders: scrollable code blocks reachable from the keyboard, and a name for
 * the servers' list.
 */
const INIT = `new MutationObserver(function () {
  document.querySelectorAll(".swagger-ui pre.microlight:not([tabindex])").forEach(function (pre) { pre.setAttribute("tabindex", "0") })
  var servers = document.getElementById("servers")
  if (servers && !servers.hasAttribute("aria-label")) servers.setAttribute("aria-label", "Serveur")
}).observe(document.getElementById("swagger-ui"), { childList: true, subtree: true })
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: false,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  validatorUrl: null,
  supportedSubmitMethods: ["get", "head"],
  displayRequestDuration: true
})
`

const vendored = (file: string): Uint8Array => readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${file}`))

export const ReferenceRoutes = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const files: ReadonlyArray<readonly [HttpRouter.PathInput, HttpServerResponse.HttpServerResponse]> = [
      [REFERENCE_PATH, HttpServerResponse.text(PAGE, { contentType: "text/html; charset=utf-8", headers: REFERENCE_SECURITY_HEADERS })],
      [`${REFERENCE_PATH}/swagger-ui-bundle.js`, HttpServerResponse.uint8Array(vendored("swagger-ui-bundle.js"), { contentType: "text/javascript; charset=utf-8" })],
      [`${REFERENCE_PATH}/swagger-ui.css`, HttpServerResponse.uint8Array(vendored("swagger-ui.css"), { contentType: "text/css; charset=utf-8" })],
      [`${REFERENCE_PATH}/reference.css`, HttpServerResponse.text(STYLE, { contentType: "text/css; charset=utf-8" })],
      [`${REFERENCE_PATH}/init.js`, HttpServerResponse.text(INIT, { contentType: "text/javascript; charset=utf-8" })]
    ]
    for (const [path, response] of files) {
      yield* router.add(
        "GET",
        path,
        Effect.flatMap(HttpServerRequest.ParsedSearchParams, (query) => {
          const name = Object.keys(query)[0]
          return name === undefined ? Effect.succeed(response) : refusedParameter(name)
        })
      )
    }
  })
)
