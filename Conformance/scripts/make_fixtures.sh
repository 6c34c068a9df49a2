#!/usr/bin/env bash
# Regenerate the project's own PNG/APNG fixtures (Conformance/fixtures/{png,apng}) from
# synthetic patterns with real encoders, then their manifests from the reference decoders.
#
#   bash Conformance/scripts/make_fixtures.sh
#
# Needs: ImageMagick 6 `convert` (apt: imagemagick), apngasm (apt: apngasm), a C compiler
# and libspng (apt: libspng-dev), Pillow (pip: Pillow); for the informational
# disagreement lists also libpng-dev and apngdis (apt). Output is deterministic for given
# versions of these tools (see Conformance/README.md for the versions used).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
conf="$(dirname "$here")"

missing=()
command -v "${CONVERT:-convert}" >/dev/null || missing+=("convert (apt: imagemagick)")
command -v "${APNGASM:-apngasm}" >/dev/null || missing+=("apngasm (apt: apngasm)")
command -v cc >/dev/null || missing+=("cc")
[ -e /usr/include/spng.h ] || missing+=("spng.h (apt: libspng-dev)")
python3 -c 'import PIL' 2>/dev/null || missing+=("Pillow (pip: Pillow)")
if [ ${#missing[@]} -gt 0 ]; then
    printf 'make_fixtures.sh: missing %s\n' "${missing[@]}" >&2
    exit 1
fi

python3 "$here/make_fixtures.py" "$conf/fixtures"
python3 "$here/make_manifests.py" fixtures
