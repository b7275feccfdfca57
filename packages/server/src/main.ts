/** Entry point (`npm start`): serve until SIGINT/SIGTERM. */
import { NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import { ServerLive } from "./server.ts"

Layer.launch(ServerLive).pipe(NodeRuntime.runMain)
