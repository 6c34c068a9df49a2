#!/usr/bin/env python3
"""Make the manifest of expected lossless transcodes from libjpeg-turbo's `jpegtran`.

Never uses the project's own code. For each input JPEG and each option set, runs
`jpegtran` (libjpeg-turbo 2.1.5, /usr/bin/jpegtran) and records the SHA-256 of what it
writes; `JPEGTranscodeTests` runs `JPEGTranscoder` with the same options and compares bytes.

Inputs: every Conformance/fixtures/jpeg/*.jpg, and (when the corpus is present) the corpus
files listed in CORPUS_FILES below: 4:2:0, 4:2:2, 4:4:4, grayscale (1x1 and 2x2 sampled),
CMYK and RGB (Adobe), progressive, restart intervals, arithmetic coding, 16-bit quantization
tables, EXIF, ICC, IPTC and COM segments, sizes that are not multiples of the MCU.

Option sets (our spelling; the jpegtran switches in parentheses):
  * every transform (none, rotate=90|180|270 `-rotate N`, flip=h|v `-flip horizontal|vertical`,
    transpose, transverse), each with and without trim (`-trim`), with the default coding
    (Annex K tables);
  * optimize (`-optimize`) and progressive (`-progressive`) with no transform, rotate=90 with
    trim, and transverse;
  * copy=none and copy=all (`-copy none|all`), and copy=all with rotate=90 and with trim;
  * upright, for a file whose EXIF orientation is 2-8: jpegtran has no such switch, so the
    expected bytes are jpegtran's with the transform the orientation asks for (2 flip h,
    3 rotate 180, 4 flip v, 5 transpose, 6 rotate 90, 7 transverse, 8 rotate 270), and with
    copy=all, run on a copy of the input whose EXIF orientation this script set to 1 (every
    EXIF APP1's IFD0 tag 0x0112).

Manifest (Conformance/manifests/jpegtran.tsv), TSV, '#' lines are comments:
  input <TAB> options <TAB> sha256-or-error <TAB> djpeg <TAB> jpegtran arguments
input is `fixtures/jpeg/NAME` (relative to Conformance/) or `corpus:jpeg/PATH`; options are
space-separated words as above, `-` for none; `error` when jpegtran writes nothing. The djpeg
column is `WxH sha256` of `djpeg -dct int` of jpegtran's output as canonical RGBA8
(make_jpeg_manifests.py's `djpeg`), for the check that our decoder reads what we write as
djpeg does.

Usage: python3 Conformance/scripts/make_jpegtran_fixtures.py
"""

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True   # no __pycache__ beside the scripts
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_jpeg_manifests import djpeg  # noqa: E402

SCRIPTS = Path(__file__).resolve().parent
CONF = SCRIPTS.parent
PROJECT = CONF.parent
MANIFEST = CONF / "manifests" / "jpegtran.tsv"
JPEGTRAN = os.environ.get("JPEGTRAN", "/usr/bin/jpegtran")

CORPUS_FILES = [
    "image-rs/images/iptc.jpg",
    "image-rs/images/portrait_2.jpg",
    "image-rs/images/progressive/cat.jpg",
    "image-rs/images/progressive/test.jpg",
    "jpeg-decoder/reftest/16bit-qtables.jpg",
    "jpeg-decoder/reftest/grayscale_16x24_sampling2x2.jpg",
    "jpeg-decoder/reftest/grayscale_24x16_sampling2x2.jpg",
    "jpeg-decoder/reftest/mozilla/jpg-cmyk-1.jpg",
    "jpeg-decoder/reftest/mozilla/jpg-cmyk-2.jpg",
    "jpeg-decoder/reftest/mozilla/jpg-size-15x15.jpg",
    "jpeg-decoder/reftest/mozilla/jpg-size-33x33.jpg",
    "jpeg-decoder/reftest/non-interleaved-mcu.jpg",
    "jpeg-decoder/reftest/restarts.jpg",
    "jpegsuite/baseline/32x32x8_cmyk.jpg",
    "jpegsuite/baseline/32x32x8_comments.jpg",
    "jpegsuite/baseline/32x32x8_rgb.jpg",
]

TRANSFORMS = {
    "rotate=90": ["-rotate", "90"], "rotate=180": ["-rotate", "180"], "rotate=270": ["-rotate", "270"],
    "flip=h": ["-flip", "horizontal"], "flip=v": ["-flip", "vertical"],
    "transpose": ["-transpose"], "transverse": ["-transverse"],
}
UPRIGHT = {2: "flip=h", 3: "rotate=180", 4: "flip=v", 5: "transpose", 6: "rotate=90", 7: "transverse", 8: "rotate=270"}
WORDS = {"trim": ["-trim"], "optimize": ["-optimize"], "progressive": ["-progressive"],
         "copy=none": ["-copy", "none"], "copy=all": ["-copy", "all"], **TRANSFORMS}


def corpus_root():
    env = os.environ.get("IMAGECODECS_CORPUS")
    return Path(env) if env else (PROJECT.parent / "shared" / "corpus").resolve()


def option_sets():
    sets = []
    for t in [None] + list(TRANSFORMS):
        for trim in ([False] if t is None else [False, True]):
            sets.append([w for w in (t, "trim" if trim else None) if w])
    for coding in ["optimize", "progressive"]:
        sets += [[coding], ["rotate=90", "trim", coding], ["transverse", coding]]
    sets += [["copy=none"], ["copy=all"], ["rotate=90", "copy=all"], ["rotate=270", "trim", "copy=all"]]
    return sets


def jpegtran(words, data):
    args = [a for w in words for a in WORDS[w]]
    with tempfile.NamedTemporaryFile(suffix=".jpg") as f:
        f.write(data)
        f.flush()
        run = subprocess.run([JPEGTRAN] + args + [f.name], capture_output=True)
    out = run.stdout if run.returncode in (0, 2) else b""
    if not out:
        return "error", "-", " ".join(args) or "-"
    with tempfile.NamedTemporaryFile(suffix=".jpg") as f:
        f.write(out)
        f.flush()
        pixels = djpeg(f.name)
    decoded = f"{pixels['size']} {pixels['sha']}" if pixels["status"] == "ok" else "error"
    return hashlib.sha256(out).hexdigest(), decoded, " ".join(args) or "-"


def exif_segments(data):
    """Yields the offset of the TIFF header of each EXIF APP1 before the first SOS."""
    p = 2
    while p + 4 <= len(data) and data[p] == 0xFF:
        code, length = data[p + 1], int.from_bytes(data[p + 2:p + 4], "big")
        if code == 0xDA:
            return
        if code == 0xE1 and data[p + 4:p + 10] == b"Exif\0\0":
            yield p + 10
        p += 2 + length


def orientation_entry(data, tiff):
    """The offset of the value of IFD0's Orientation (SHORT) and its value, or None."""
    order = data[tiff:tiff + 2]
    if order not in (b"II", b"MM"):
        return None
    big = order == b"MM"
    u16 = lambda o: int.from_bytes(data[o:o + 2], "big" if big else "little")
    ifd = tiff + int.from_bytes(data[tiff + 4:tiff + 8], "big" if big else "little")
    if ifd + 2 > len(data):
        return None
    for i in range(u16(ifd)):
        e = ifd + 2 + 12 * i
        if e + 12 > len(data):
            return None
        if u16(e) == 0x0112 and u16(e + 2) == 3:
            return e + 8, u16(e + 8), big
    return None


def upright_rows(name, data):
    tiffs = list(exif_segments(data))
    first = orientation_entry(data, tiffs[0]) if tiffs else None
    if not first or first[1] not in UPRIGHT:
        return []
    transform = UPRIGHT[first[1]]
    patched = bytearray(data)
    for tiff in tiffs:
        entry = orientation_entry(data, tiff)
        if entry:
            patched[entry[0]:entry[0] + 2] = (1).to_bytes(2, "big" if entry[2] else "little")
    rows = []
    for extra, source in [([], data), (["copy=all"], bytes(patched)), (["trim", "copy=all"], bytes(patched))]:
        digest, decoded, args = jpegtran([transform] + extra, source)
        rows.append((name, " ".join(["upright"] + extra), digest, decoded, args + (" (orientation set to 1)" if source is not data else "")))
    return rows


def main():
    inputs = [(f"fixtures/jpeg/{p.name}", p.read_bytes()) for p in sorted((CONF / "fixtures" / "jpeg").glob("*.jpg"))]
    corpus = corpus_root() / "jpeg"
    if corpus.is_dir():
        inputs += [(f"corpus:jpeg/{c}", (corpus / c).read_bytes()) for c in CORPUS_FILES if (corpus / c).is_file()]
    version = subprocess.run([JPEGTRAN, "-version"], capture_output=True, text=True).stderr.strip()
    rows = []
    for name, data in inputs:
        for words in option_sets():
            digest, decoded, args = jpegtran(words, data)
            rows.append((name, " ".join(words) or "-", digest, decoded, args))
        rows += upright_rows(name, data)
    with open(MANIFEST, "w") as m:
        m.write(f"# Expected lossless transcodes: {JPEGTRAN} ({version}); made by scripts/make_jpegtran_fixtures.py\n")
        m.write("# input\toptions\tsha256\tdjpeg\tjpegtran arguments\n")
        for row in rows:
            m.write("\t".join(row) + "\n")
    print(f"{len(rows)} rows, {len(inputs)} inputs -> {MANIFEST.relative_to(PROJECT)}")


if __name__ == "__main__":
    main()
