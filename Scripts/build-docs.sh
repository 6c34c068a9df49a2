#!/usr/bin/env bash
# Builds the DocC documentation of the two library products, ImageCodecs (with the CodecCore
# types it re-exports) and JPEGCodec, with the toolchain's own docc: no package plugin.
# Fails on any docc warning and on any public symbol without documentation, and prints the
# coverage (SPEC-NOTES.md, "Documentation").
#
#   Scripts/build-docs.sh           archives in .build/docs/ImageCodecs.doccarchive and
#                                   .build/docs/JPEGCodec.doccarchive
#   JOBS=1 Scripts/build-docs.sh    builds the library on one job
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="$root/.build/docs"

# The toolchain's tools: through xcrun on macOS, beside `swift` elsewhere.
sdk=()
if command -v xcrun >/dev/null 2>&1; then
    docc="$(xcrun --find docc)"
    extract="$(xcrun --find swift-symbolgraph-extract)"
    sdk=(-sdk "$(xcrun --show-sdk-path)")
else
    bindir="$(dirname "$(readlink -f "$(command -v swift)")")"
    docc="$bindir/docc"
    extract="$bindir/swift-symbolgraph-extract"
fi
triple="$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"

# The debug build `swift build` and `swift test` share; ImageCodecs depends on JPEGCodec.
swift build --target ImageCodecs ${JOBS:+--jobs "$JOBS"}
bin="$(swift build --show-bin-path)"
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"

rm -rf "$out"
for module in ImageCodecs JPEGCodec; do
    mkdir -p "$out/symbol-graphs/$module"
    # Re-exported CodecCore symbols go into ImageCodecs' graph. Only comments written on a
    # declaration count: no synthesized members, no documentation inherited from a protocol.
    "$extract" -module-name "$module" -target "$triple" ${sdk[@]+"${sdk[@]}"} \
        -I "$modules" -I "$root/Sources/CZlib" -module-cache-path "$out/module-cache" \
        -minimum-access-level public -experimental-allowed-reexported-modules=CodecCore \
        -skip-synthesized-members -skip-inherited-docs -output-dir "$out/symbol-graphs/$module"
    # --enable-inherited-docs: a declaration that implements a protocol requirement shows its
    # own comment (the graph holds no other), not "Inherited from".
    "$docc" convert "$root/Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$out/symbol-graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.imagecodecs.$module" \
        --output-path "$out/$module.doccarchive" --warnings-as-errors --enable-inherited-docs \
        --experimental-documentation-coverage --coverage-summary-level none
done

# Every symbol page (types, members, globals, the module) must have an abstract.
python3 - "$out"/ImageCodecs.doccarchive/documentation-coverage.json \
    "$out"/JPEGCodec.doccarchive/documentation-coverage.json <<'EOF'
import json, sys

total, missing = 0, []
for path in sys.argv[1:]:
    for node in json.load(open(path)):
        if not node["kind"]["isSymbol"]:
            continue
        total += 1
        if not node["hasAbstract"]:
            missing.append(node["referencePath"])
for reference in sorted(missing):
    print("undocumented:", reference)
print(f"documentation coverage: {total - len(missing)}/{total} public symbols documented")
sys.exit(1 if missing else 0)
EOF
echo "documentation: $out/ImageCodecs.doccarchive, $out/JPEGCodec.doccarchive"
