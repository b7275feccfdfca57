/**
 * A query worker thread's entry point (see `QueryPool.ts`), with Node's compile cache on as in
 * `main.ts`: each worker loads Effect and the domain while the server starts.
 */
import { enableCompileCache } from "node:module"

enableCompileCache()
const { perform } = await import("./work.ts")
const { serveQueries } = await import("./serveQueries.ts")
serveQueries(perform)
