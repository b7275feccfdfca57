/**
 * The sequences' thread (see `startSequenceThread` in sequence.ts): runs `runSequence` as it is
 * told, one sequence at a time, and posts what it measured. A thread of its own so that the bench's
 * main thread, which holds every family's corpus (some 70 MB live at 4.45 M records), does not time
 * its own full collections into the answers: each body read is memory outside the heap, and the
 * main thread collected every 130–300 ms under the 18–33 KB bodies, with pauses of 2–36 ms, as long
 * as the slowest answers of those families. Its HTTP client is compiled before the first order
 * (`warmSequence`), against a real server's answers by the bench's unrecorded first sequences
 * (`CLIENT_REHEARSALS`, `measureRun.ts`), and again after the collection before each order
 * (`prepareClient`), and one thread runs every sequence, so that a family's first requests time
 * the server's first use, not the client's.
 */
import { parentPort } from "node:worker_threads"
import { Answers, PackedPaths, prepareClient, runSequence, warmSequence, type SequenceMessage, type SequenceOrder } from "./sequence.ts"

const port = parentPort
if (port === null) throw new Error("the sequences' thread runs as a worker thread")
const post = (message: SequenceMessage): void => port.postMessage(message)
/**
 * Enough for V8 to compile the sequences' loop against this thread's own server: after 1 000, it
 * still compiled some around the 20th–25th request of the thread's first sequence, and against the
 * bare server 9 first sequences of 12 were over 3× their warm p99; after 5 000, 18 of 68 over six
 * checks (about 4.9 by chance from their warm runs of 50), most at their first four requests. What
 * a real server's answers still make it compile, over two sequences, the bench's unrecorded first
 * sequences take (`CLIENT_REHEARSALS`, `measureRun.ts`).
 */
const FIRST_WARM_REQUESTS = 5_000
/** Enough for V8 to compile the client's code again after a full collection (it did so around the 30th request). */
const REWARM_REQUESTS = 300
await warmSequence(FIRST_WARM_REQUESTS)
/** Every sequence's answers, made before the collection that precedes it (`Answers`). */
let answers = new Answers(0)
const goOn = () => new Promise<void>((resolve) => port.once("message", () => resolve()))

port.on("message", async (order: SequenceOrder) => {
  if (order.kind !== "run") return
  const { baseUrl, bytes, ends, duration, pauseAt } = order
  const paths = new PackedPaths(bytes, ends)
  answers = answers.holding(paths.length)
  await prepareClient(() => warmSequence(REWARM_REQUESTS))
  const timed = await runSequence(baseUrl, paths, duration, pauseAt === undefined ? undefined : {
    requests: pauseAt,
    run: async () => {
      const resumed = goOn()
      post({ kind: "paused" })
      await resumed
    }
  }, answers)
  post({ kind: "done", ...timed })
})
