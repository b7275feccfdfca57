/**
 * Entry point (`npm start`): serve until SIGINT/SIGTERM, then shut down gracefully and exit 0
 * (see `server.ts`). A start that fails (invalid configuration, unreadable file) exits non-zero.
 */
import { runServer, ServerLive } from "./node/server.ts"

runServer(ServerLive)
