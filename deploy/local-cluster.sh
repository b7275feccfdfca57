#!/usr/bin/env bash
# A working cluster on one machine (issue 12): Redis for the shared quota, two replicas of the API
# serving one snapshot, nginx in front (deploy/nginx/equides.conf) with its response cache.
#
#   deploy/local-cluster.sh up [DATA_FILE]   start everything (the embedded sample by default)
#   deploy/local-cluster.sh down             stop everything (replicas drain on SIGTERM)
#   deploy/local-cluster.sh status           what runs
#
# Ports (loopback only): nginx 8080, replicas 8081 and 8082 (metrics 9465 and 9466), Redis 6390.
# Everything the cluster writes (logs, pids, nginx cache, the sample's copy and its snapshot) is
# under deploy/.run/. Needs redis-server and nginx (apt-get install redis-server nginx) and the
# repository's npm dependencies (npm ci).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUN="$ROOT/deploy/.run"
REDIS_PORT=6390
REPLICAS=(8081 8082)
METRICS=(9465 9466)
PROXY_URL=http://127.0.0.1:8080

# Node 24 from the repository's dependencies when the system one is older.
node_bin() {
  if [[ -x "$ROOT/node_modules/.bin/node" ]]; then echo "$ROOT/node_modules/.bin/node"; else command -v node; fi
}

need() {
  command -v "$1" >/dev/null || { echo "$1 is needed: apt-get install $2" >&2; exit 1; }
}

# Waits until `curl` gets a 200 from $1 (at most $2 seconds).
wait_ok() {
  local url=$1 seconds=$2
  for _ in $(seq 1 $((seconds * 10))); do
    if [[ $(curl -s -o /dev/null -w '%{http_code}' "$url" || true) == 200 ]]; then return 0; fi
    sleep 0.1
  done
  echo "no 200 from $url after ${seconds} s" >&2
  return 1
}

running() {
  [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null
}

up() {
  need redis-server redis-server
  need nginx nginx
  need curl curl
  mkdir -p "$RUN/logs" "$RUN/nginx/logs" "$RUN/nginx/tmp" "$RUN/nginx/cache" "$RUN/data"
  local node data
  node=$(node_bin)

  # The data: the file given, else a copy of the embedded sample (its snapshot is written beside
  # the copy, not in the repository). The snapshot is built once; both replicas load it.
  if [[ $# -ge 1 ]]; then
    data=$(realpath "$1")
  else
    data="$RUN/data/equides-sample.jsonl.gz"
    cp -p "$ROOT/packages/ingest/sample/equides-sample.jsonl.gz" "$data"
  fi
  if [[ ! -f "$data.snapshot" || "$data" -nt "$data.snapshot" ]]; then
    echo "snapshot of $data"
    (cd "$ROOT" && "$node" --experimental-strip-types --disable-warning=ExperimentalWarning packages/ingest/src/cli.ts snapshot "$data") >"$RUN/logs/snapshot.log" 2>&1
  fi

  if running "$RUN/redis.pid"; then
    echo "redis already running"
  else
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
      --pidfile "$RUN/redis.pid" --logfile "$RUN/logs/redis.log" --dir "$RUN"
    for _ in $(seq 1 50); do running "$RUN/redis.pid" && break; sleep 0.1; done
    echo "redis on 127.0.0.1:$REDIS_PORT"
  fi

  for i in "${!REPLICAS[@]}"; do
    local port=${REPLICAS[$i]} pidfile="$RUN/replica-${REPLICAS[$i]}.pid"
    if running "$pidfile"; then
      echo "replica $port already running"
      continue
    fi
    (
      cd "$ROOT"
      DATA_FILE="$data" PORT="$port" HOST=127.0.0.1 METRICS_PORT="${METRICS[$i]}" WORKERS=1 \
        RATE_LIMIT_STORE="redis://127.0.0.1:$REDIS_PORT" TRUSTED_PROXIES=127.0.0.1 \
        nohup "$node" --experimental-strip-types --disable-warning=ExperimentalWarning \
        packages/server/src/main.ts >"$RUN/logs/replica-$port.log" 2>&1 &
      echo $! >"$pidfile"
    )
  done
  for port in "${REPLICAS[@]}"; do
    wait_ok "http://127.0.0.1:$port/readyz" 120
    echo "replica on 127.0.0.1:$port ready"
  done

  if running "$RUN/nginx/nginx.pid"; then
    nginx -p "$RUN/nginx" -c "$ROOT/deploy/nginx/equides.conf" -s reload 2>>"$RUN/logs/nginx.log"
  else
    nginx -p "$RUN/nginx" -c "$ROOT/deploy/nginx/equides.conf" 2>"$RUN/logs/nginx.log"
  fi
  wait_ok "$PROXY_URL/readyz" 10
  echo "nginx on $PROXY_URL: try curl -i $PROXY_URL/v1/meta"
}

stop_pid() {
  local pidfile=$1 what=$2
  if running "$pidfile"; then
    local pid
    pid=$(cat "$pidfile")
    kill -TERM "$pid"
    # A replica drains its requests in flight (at most 10 s) before it exits.
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    echo "$what stopped"
  fi
  rm -f "$pidfile"
}

down() {
  if running "$RUN/nginx/nginx.pid"; then
    nginx -p "$RUN/nginx" -c "$ROOT/deploy/nginx/equides.conf" -s quit 2>>"$RUN/logs/nginx.log"
    for _ in $(seq 1 50); do running "$RUN/nginx/nginx.pid" || break; sleep 0.1; done
    echo "nginx stopped"
  fi
  for port in "${REPLICAS[@]}"; do stop_pid "$RUN/replica-$port.pid" "replica $port"; done
  stop_pid "$RUN/redis.pid" "redis"
}

status() {
  running "$RUN/nginx/nginx.pid" && echo "nginx: $PROXY_URL" || echo "nginx: stopped"
  for port in "${REPLICAS[@]}"; do
    running "$RUN/replica-$port.pid" && echo "replica $port: $(curl -s "http://127.0.0.1:$port/readyz")" || echo "replica $port: stopped"
  done
  running "$RUN/redis.pid" && echo "redis: 127.0.0.1:$REDIS_PORT" || echo "redis: stopped"
}

case "${1:-}" in
  up) shift; up "$@" ;;
  down) down ;;
  status) status ;;
  *) echo "usage: $0 up [DATA_FILE] | down | status" >&2; exit 2 ;;
esac
