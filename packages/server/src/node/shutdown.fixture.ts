/**
 * The production server with slow `stats` handlers (`SLOW_MS`, real time): the program the
 * shutdown test starts as a child process, to have a request in flight when the signal comes.
 */
import { makeServerLive, runServer } from "./server.ts"
import { instrumentedStats, makeProbe } from "../testing/instrumented.ts"

runServer(makeServerLive(instrumentedStats(makeProbe(), Number(process.env["SLOW_MS"] ?? 1500))))
