#!/usr/bin/env bash
# Runs one example's main, e.g. `scripts/example.sh RpcExample`: builds what it needs first (tests skipped), then
# starts it with the examples module's runtime classpath. The examples are in examples/src/main/java/dev/sluice/examples.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/example.sh EXAMPLE [ARGS...], e.g. scripts/example.sh RpcExample}
shift
mvn -q -B -ntp -Dstyle.color=never -pl examples -am package dependency:build-classpath -DskipTests -Dmaven.javadoc.skip=true \
  -Dmaven.source.skip=true -Dmdep.outputFile=target/example-classpath.txt -Dmdep.includeScope=runtime
exec java -cp "examples/target/classes:$(cat examples/target/example-classpath.txt)" "dev.sluice.examples.$name" "$@"
