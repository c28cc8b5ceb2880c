#!/bin/sh
# Makes the key files a multi-process weiqi deployment shares, in DIR, keeping any that exist:
#
#   secret.key            the gateways' token secret (64 hex digits: HS256). Every gateway replica must
#                         hold the same one, or a token issued by one is refused by another.
#   association.key       the association's Ed25519 signing key for rank certificates (ranking service
#   association.key.pub   and gateways), and its public half (`weiqi cert verify --key`).
#
# Usage: init-keys.sh DIR            (WEIQI_BIN=path/to/weiqi to use a binary not on PATH;
#                                     WEIQI_ASSOCIATION=name, default cwa, names a new association key)
#
# The binary makes these files itself on first start (`weiqi up`, `weiqi token`, `weiqi serve
# ranking|gateway`), but several processes starting at once would each make their own, so a deployment
# makes them once, before any service starts: docker-compose runs this script as a one-shot service;
# for Kubernetes run it once on a workstation and store the result as a Secret (see k8s/README.md).
#
# How: `weiqi up` on a throw-away embedded log (loopback, ephemeral ports, no extra services) creates
# both keys before it starts serving; the script waits for them, stops it and copies the files that
# DIR lacks. Nothing is overwritten: an existing secret.key or association.key is kept.
set -eu

dir=${1:?usage: init-keys.sh DIR}
bin=${WEIQI_BIN:-weiqi}
association=${WEIQI_ASSOCIATION:-cwa}

mkdir -p "$dir"
if [ -s "$dir/secret.key" ] && [ -s "$dir/association.key" ] && [ -s "$dir/association.key.pub" ]; then
    echo "init-keys: $dir already holds secret.key, association.key and association.key.pub"
    exit 0
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Existing keys go into the scratch directory first, so that what is made is consistent with them
# (a missing association.key.pub is derived from an existing association.key).
for f in secret.key association.key; do
    if [ -s "$dir/$f" ]; then cp "$dir/$f" "$scratch/$f"; fi
done

# The env variables of a deployment must not leak into this throw-away run (it must not reach NATS).
env -u WEIQI_NATS_URL -u WEIQI_REDIS_URL -u OTEL_EXPORTER_OTLP_ENDPOINT -u OTEL_EXPORTER_OTLP_TRACES_ENDPOINT \
    "$bin" up --data-dir "$scratch" --grpc 127.0.0.1:0 --http 127.0.0.1:0 --quiet --services none \
    --association "$association" &
pid=$!
i=0
while [ ! -s "$scratch/secret.key" ] || [ ! -s "$scratch/association.key.pub" ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
        wait "$pid" || true
        echo "init-keys: weiqi up exited before making the keys" >&2
        exit 1
    fi
    i=$((i + 1))
    if [ "$i" -gt 600 ]; then
        echo "init-keys: no keys after 60 s" >&2
        kill -TERM "$pid" 2>/dev/null || true
        exit 1
    fi
    sleep 0.1
done
# SIGTERM, not SIGINT: a background job of a non-interactive shell starts with SIGINT ignored, and
# weiqi installs its Ctrl-C handler only once it serves, so an early SIGINT would be lost. The
# throw-away log needs no graceful stop; the key files are complete (the .pub is written last).
sleep 0.2
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true

umask 077
for f in secret.key association.key association.key.pub; do
    if [ -s "$dir/$f" ]; then
        echo "init-keys: kept $dir/$f"
    else
        cp "$scratch/$f" "$dir/$f"
        echo "init-keys: made $dir/$f"
    fi
done
chmod 600 "$dir/secret.key" "$dir/association.key"
chmod 644 "$dir/association.key.pub"
