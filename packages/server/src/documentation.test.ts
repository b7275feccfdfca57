/**
 * `/documentation` shows, for every operation of the API, a runnable `curl` request and an excerpt
 * of its real answer: the request, run against the same server, answers 200 and its body begins
 * with the excerpt. The OpenAPI document gives every parameter an example.
 */
import { assert, layer } from "@effect/vitest"
import { fromRecords, operationsOf } from "@equides/domain"
import * as Effect from "effect/Effect"
import { FAMILY } from "./testing/family.ts"
import { call, testServer } from "./testing/server.ts"

const unescape = (html: string): string =>
  html.replaceAll("&quot;", "\"").replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&")

/** The (route, URL, excerpt) triples of the page's examples section. */
const examplesOf = (page: string): Array<{ readonly route: string; readonly url: string; readonly excerpt: string }> =>
  [...page.matchAll(/<h3>GET ([^<]+)<\/h3>\n<pre><code>curl -s "\$API([^"]+)"<\/code><\/pre>\n<pre><code>([\s\S]*?)<\/code><\/pre>/g)]
    .map((match) => ({ route: unescape(match[1]), url: unescape(match[2]), excerpt: unescape(match[3]) }))

layer(testServer(fromRecords(FAMILY)))("documentation", (it) => {
  it.effect("every API route has a curl request whose real answer begins with the excerpt shown", () =>
    Effect.gen(function*() {
      const page = yield* call("/documentation")
      assert.strictEqual(page.status, 200)
      const examples = examplesOf(page.text)
      const document = (yield* call("/openapi.json")).json as Record<string, any>
      // An export's answer is a file, not JSON: its own section shows it (`exports` below).
      const apiRoutes = operationsOf(document).map(({ path }) => path).filter((path) => !path.startsWith("/documentation") && !path.startsWith("/v1/export/"))
      assert.sameMembers(examples.map(({ route }) => route), apiRoutes)
      for (const { excerpt, url } of examples) {
        const reply = yield* call(url)
        assert.strictEqual(reply.status, 200, url)
        // The answer as a reader would print it (two-space JSON): its first 16 lines, then `…`
        // alone on a line when more follow.
        const full = JSON.stringify(reply.json, null, 2).split("\n")
        const lines = excerpt.split("\n")
        const elided = lines.at(-1) === "…"
        const shown = elided ? lines.slice(0, -1) : lines
        assert.strictEqual(shown.length, Math.min(full.length, 16), url)
        assert.strictEqual(elided, full.length > 16, url)
        assert.deepStrictEqual(shown, full.slice(0, shown.length), url)
      }
    }))

  it.effect("the OpenAPI document gives every parameter an example its schema admits", () =>
    Effect.gen(function*() {
      const document = (yield* call("/openapi.json")).json as Record<string, any>
      let count = 0
      for (const { operation, path } of operationsOf(document)) {
        for (const parameter of operation.parameters ?? []) {
          count++
          assert.isDefined(parameter.example, `${path} ${parameter.name}`)
          if (parameter.schema.type === "array") assert.isArray(parameter.example, `${path} ${parameter.name}`)
        }
      }
      assert.isAbove(count, 40)
    }))
})
