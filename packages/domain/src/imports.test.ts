/**
 * The package's layering, read from its import statements: storage (`dataset/`) knows neither the
 * response schemas nor the HTTP API, the vocabulary is a leaf, and no modules import one another
 * in a circle. Test files are left out (they may import anything).
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const SRC = import.meta.dirname

/** Imports of each module of the package (paths relative to `src/`, or package names), tests left out. */
const importGraph = (): ReadonlyMap<string, ReadonlyArray<string>> => {
  const graph = new Map<string, ReadonlyArray<string>>()
  const modules = readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  for (const module of modules) {
    const text = readFileSync(join(SRC, module), "utf8")
    const imports: Array<string> = []
    // `import … from "./x.ts"`, `export … from "./x.ts"`, `import "./x.ts"`, `import("./x.ts")`, over several lines too.
    for (const [, specifier] of text.matchAll(/\b(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
      imports.push(specifier.startsWith(".") ? relative(SRC, resolve(SRC, dirname(module), specifier)) : specifier)
    }
    graph.set(module, imports)
  }
  return graph
}

/** For every module reached from `start`, the chain of imports that reaches it. */
const reached = (graph: ReadonlyMap<string, ReadonlyArray<string>>, start: string): ReadonlyMap<string, ReadonlyArray<string>> => {
  const chains = new Map<string, ReadonlyArray<string>>([[start, [start]]])
  const queue = [start]
  for (let module = queue.shift(); module !== undefined; module = queue.shift()) {
    for (const next of graph.get(module) ?? []) {
      if (chains.has(next)) continue
      chains.set(next, [...(chains.get(module) ?? []), next])
      queue.push(next)
    }
  }
  return chains
}

/** The import circles: chains from a module back to itself (one per module on a circle). */
const circles = (graph: ReadonlyMap<string, ReadonlyArray<string>>): Array<ReadonlyArray<string>> =>
  [...graph.keys()].flatMap((module) => {
    const back = (graph.get(module) ?? []).flatMap((next) => {
      const chain = reached(graph, next).get(module)
      return chain === undefined ? [] : [[module, ...chain]]
    })
    return back.slice(0, 1)
  })

describe("imports", () => {
  const graph = importGraph()

  it("reads the package's modules and their imports", () => {
    // The walk sees the modules it guards (a wrong root or pattern would make the checks below vacuous).
    expect(graph.get("dataset/DatasetData.ts")).toContain("dataset/columns.ts")
    expect(graph.get("schemas/common.ts")).toContain("vocabulary.ts")
    expect([...graph.keys()].filter((module) => module.startsWith("dataset/")).length).toBeGreaterThan(10)
  })

  it("storage reaches neither the response schemas nor the HTTP API", () => {
    const leaks = [...graph.keys()].filter((module) => module.startsWith("dataset/")).flatMap((module) =>
      [...reached(graph, module)].filter(([to]) => to.startsWith("schemas/") || to.startsWith("api/")).map(([, chain]) => chain.join(" → "))
    )
    expect(leaks).toEqual([])
  })

  it("the vocabulary imports nothing", () => {
    expect(graph.get("vocabulary.ts")).toEqual([])
  })

  it("no modules import one another in a circle", () => {
    expect(circles(graph).map((chain) => chain.join(" → "))).toEqual([])
  })
})
