/**
 * The Parquet thread's entry point (`parquetThread.ts`), with Node's compile cache on as in
 * `main.ts`: the writer's code loaded after it is on.
 */
import { enableCompileCache } from "node:module"

enableCompileCache()
const { writeInThisThread } = await import("./parquetThread.ts")
writeInThisThread()
