/** A query worker thread's entry point (see `QueryPool.ts`). */
import { answer } from "@equides/domain/answers"
import { serveQueries } from "./serveQueries.ts"

serveQueries(answer)
