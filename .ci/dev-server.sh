# Sourced by CI scripts: starts a fresh in-memory dev-mode edugo-server on a free port, stops it
# on exit, and exports EDUGO_URL plus a new tenant (EDUGO_TENANT) and its admin's credentials
# (EDUGO_ADMIN_EMAIL, EDUGO_ADMIN_PASSWORD). Extra server arguments: EDUGO_SERVER_ARGS.

BINARY="$(swift build --show-bin-path)/edugo-server"
[ -x "$BINARY" ] || swift build --product edugo-server
LOG="${EDUGO_SERVER_LOG:-$(mktemp -d)/edugo-server.log}"

# shellcheck disable=SC2086
"$BINARY" --port 0 --in-memory --dev --log-level "${EDUGO_SERVER_LOG_LEVEL:-error}" ${EDUGO_SERVER_ARGS:-} >"$LOG" 2>&1 &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true' EXIT

PORT=""
for _ in $(seq 1 100); do
    PORT="$(grep -o 'http://127.0.0.1:[0-9]*' "$LOG" | head -1 | sed 's/.*://')" || true
    [ -n "$PORT" ] && break
    sleep 0.2
done
[ -n "$PORT" ] || { echo "server did not start"; cat "$LOG"; exit 1; }
export EDUGO_URL="http://127.0.0.1:$PORT"

TENANT_JSON="$(curl -sf -X POST "$EDUGO_URL/__dev/tenants")"
account() { python3 -c 'import json,sys; print([a for a in json.loads(sys.argv[1])["accounts"] if a["role"]=="admin"][0][sys.argv[2]])' "$TENANT_JSON" "$1"; }
export EDUGO_TENANT="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["tenant_id"])' "$TENANT_JSON")"
export EDUGO_ADMIN_EMAIL="$(account email)"
export EDUGO_ADMIN_PASSWORD="$(account password)"
