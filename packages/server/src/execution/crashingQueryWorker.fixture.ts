/** A query worker that dies (its thread exits) on the suggestion `q=crash`, and answers the rest. */
import { answer } from "@equides/domain/answers"
import { serveQueries } from "./serveQueries.ts"

serveQueries((data, execution) => {
  if (execution.endpoint === "suggest" && execution.query.q === "crash") process.exit(3)
  return answer(data, execution)
})
