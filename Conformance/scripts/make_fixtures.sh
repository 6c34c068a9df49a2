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
. "$here/fixtures_common.sh"

need_tools make_fixtures.sh "${APNGASM:-apngasm}" "apngasm (apt: apngasm)" spng.h "spng.h (apt: libspng-dev)"

python3 "$here/make_fixtures.py" "$conf/fixtures"
python3 "$here/make_manifests.py" fixtures
