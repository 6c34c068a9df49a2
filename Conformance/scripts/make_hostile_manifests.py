#!/usr/bin/env python3
"""Make manifests/fixtures-hostile.tsv: the reference decoders' verdict on each hostile fixture
(Conformance/fixtures/hostile/, written by make_hostile_fixtures.py).

  python3 Conformance/scripts/make_hostile_manifests.py

References (never the project's own decoder):
  * JPEG: libjpeg-turbo `djpeg -dct int -pnm` (make_jpeg_manifests.djpeg);
  * WebP: libwebp `dwebp -pam` (make_webp_manifests.dwebp);
  * PNG and APNG: libpng's static (IDAT) image (make_manifests.Libpng, libpng_rgba.c): every
    APNG here breaks the animation after some valid frames, and falls back to that image
    (SPEC-NOTES.md, APNG); libpng keeps the image of a file with more ancillary chunks than its
    chunk cache (1,000) and drops the rest, as this library does (Limits.maxMetadataItems),
    where libspng refuses the file. libspng's verdict and Pillow's frame count are noted;
  * GIF: Pillow's composited frames.

Columns: path, frame, size, sha256 (or `-  -  error`), then
  expect     frames   -- the frames must equal the reference's, whole and fed in pieces;
             refused  -- the reference refuses the file: the source must end in invalidData;
             KIND     -- a documented deviation (SPEC-NOTES.md): the source ends with this error
                         kind (unknownType: no coder recognises the file) where the reference
                         decodes it;
  reference  the reference's verdict (ok, warning or error) and its message.
"""

import struct
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_jpeg_manifests import djpeg, djpeg_version  # noqa: E402
from make_manifests import Libpng, Spng  # noqa: E402
from make_webp_manifests import dwebp, dwebp_version  # noqa: E402
from manifest_common import (CONF, FRAME_COLUMNS, MANIFESTS, canonical_from_pillow, clean, pillow_version,  # noqa: E402
                             sha, write_tsv)

FIXTURES = CONF / "fixtures" / "hostile"
# Where this library deliberately differs from the reference (SPEC-NOTES.md, JPEG): the error kind.
DEVIATIONS = {
    "jpeg-junk-before-first-marker.jpg": "unknownType",   # no FF D8 FF signature (WHATWG mimesniff, Chromium)
    "jpeg-eob-scan-flood.jpg": "limitExceeded",           # Limits.maxJPEGBlockPasses
}


def pillow_frames(path):
    """-> (frames [(size, sha)], note) from Pillow, seeking each frame."""
    from PIL import Image
    frames = []
    try:
        with Image.open(path) as im:
            n = getattr(im, "n_frames", 1)
            for i in range(n):
                im.seek(i)
                frames.append(("%dx%d" % im.size, sha(canonical_from_pillow(im))))
        return frames, "Pillow: %d frame(s)" % len(frames)
    except Exception as e:  # noqa: BLE001 - a refusal is recorded as such
        return frames, "Pillow: %s after %d frame(s): %s" % (type(e).__name__, len(frames), clean(str(e)))


def verdict(path, spng, libpng):
    """-> (frames [(size, sha)] or None when refused, reference verdict text)"""
    name = path.name
    if name.endswith(".jpg"):
        r = djpeg(path)
        text = "djpeg %s: %s" % (r["status"], r.get("msg") or "-")
        return ([(r["size"], r["sha"])] if r["status"] in ("ok", "warning") else None), text
    if name.endswith(".webp"):
        r = dwebp(path)
        text = "dwebp %s: %s" % (r["status"], r.get("msg") or "-")
        return ([(r["size"], r["sha"])] if r["status"] == "ok" else None), text
    if name.endswith(".png"):
        digest = libpng.decode(path)
        r = spng.decode(path)
        _, note = pillow_frames(path)
        text = "libpng %s; libspng %s: %s; %s" % ("error" if digest == "error" else "ok", r["status"],
                                                 r.get("msg") or "-", note)
        size = "%dx%d" % struct.unpack(">II", path.read_bytes()[16:24])
        return (None if digest == "error" else [(size, digest)]), text
    frames, note = pillow_frames(path)
    return frames or None, note


def main():
    spng = Spng()
    tmp = tempfile.TemporaryDirectory(prefix="libpng.")
    libpng = Libpng(tmp.name)
    rows, counts = [], {"frames": 0, "refused": 0, "deviation": 0}
    try:
        for path in sorted(p for p in FIXTURES.iterdir() if p.suffix in (".png", ".gif", ".jpg", ".webp")):
            rel = path.relative_to(CONF).as_posix()
            frames, text = verdict(path, spng, libpng)
            expect = DEVIATIONS.get(path.name) or ("frames" if frames else "refused")
            counts["deviation" if path.name in DEVIATIONS else expect] += 1
            if frames:
                rows += [(rel, i, size, digest, expect, text) for i, (size, digest) in enumerate(frames)]
            else:
                rows.append((rel, "-", "-", "error", expect, text))
    finally:
        spng.close()
        tmp.cleanup()
    write_tsv(MANIFESTS / "fixtures-hostile.tsv", [
        "Hostile-input reproducers of issue 15 (paths relative to Conformance/); made by scripts/make_hostile_manifests.py",
        "from the files scripts/make_hostile_fixtures.py writes. References: %s; %s;" % (djpeg_version(), dwebp_version()),
        "  %s (static PNG image; %s noted); %s (GIF frames, APNG frame counts noted)."
        % (libpng.version, spng.version, pillow_version()),
        "Canonical hash: RGBA8, straight alpha, alpha 0 -> 0,0,0,0.",
        "expect: frames (equal the reference, whole and fed in pieces), refused (the reference refuses: invalidData),",
        "  or an error kind this library gives where the reference decodes (documented in SPEC-NOTES.md).",
        "Files: %d with frames, %d refused, %d deviations." % (counts["frames"], counts["refused"], counts["deviation"]),
    ], FRAME_COLUMNS + ["expect", "reference"], rows)


if __name__ == "__main__":
    main()
