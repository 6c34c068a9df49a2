#!/usr/bin/env bash
# Regenerate the project's own lossy WebP fixtures (Conformance/fixtures/webp-lossy/*.webp and
# RECIPES.tsv), then their manifest (manifests/fixtures-webp-lossy.tsv) from the reference
# decoder (dwebp -pam, made canonical by make_webp_manifests.py's functions).
#
#   bash Conformance/scripts/make_webp_lossy_fixtures.sh
#
# Kept apart from make_webp_fixtures.sh (lossless) so the two can be regenerated alone.
# What it makes, and from what:
#  * sources: synthetic images written by ImageMagick's convert with fixed seeds: plasma
#    fractals (sharp, and blurred: photo-like), per-pixel noise (large coefficients: DCT_CAT6
#    tokens at high quality), a gradient, a checkerboard, grey;
#  * encoder: libwebp's cwebp (lossy, the VP8 bitstream of RFC 6386 in a RIFF `VP8 ` chunk,
#    RFC 9649 2.5) over the options that change what the decoder meets: -q 0...100 (quantizer
#    indices), -sns (segment quantizer/filter deltas), -f 0...100 (filter level, 0 = no loop
#    filter), -sharpness 0...7, -strong (normal filter) and -nostrong (simple filter), -af,
#    -segments 1...4 (segment map and tree probabilities), -m 0...6 (mode decisions: B_PRED
#    at high -m, i16 only at -m 0), -partition_limit (coarser first partition), -sharp_yuv,
#    presets; sizes that are odd, tiny (1x1, one row, one column) and not multiples of 16 (the
#    decoder crops whole macroblocks; the upsampler's last row and column); plus webpmux -set
#    icc for one extended-format (VP8X + ICCP + VP8) file.
# cwebp 1.2.4 cannot write more than one DCT token partition: the corpus' libwebp-test-data
# vectors cover 2, 4 and 8 partitions.
# File names say what each file tests: <source>-<options>-<W>x<H>.webp; RECIPES.tsv has, per
# file, the convert and cwebp commands. Every file is checked before the script ends: a
# RIFF/WEBP file whose bitstream is VP8 (or VP8X + VP8 where asked), which dwebp decodes, and
# no two files alike; the ALPH chunks must use both compression methods, all four filters (with
# compressed alpha: cwebp does not filter raw alpha) and both pre-processing values.
#
# Needs: convert (apt: imagemagick), cwebp, dwebp, webpmux (apt: webp). Output is deterministic
# for given versions of these tools (Conformance/README.md, WebP).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
conf="$(dirname "$here")"

missing=()
command -v "${CONVERT:-convert}" >/dev/null || missing+=("convert (apt: imagemagick)")
for tool in cwebp dwebp webpmux; do
    command -v "$tool" >/dev/null || missing+=("$tool (apt: webp)")
done
if [ ${#missing[@]} -gt 0 ]; then
    for m in "${missing[@]}"; do printf 'make_webp_lossy_fixtures.sh: missing %s\n' "$m" >&2; done
    exit 1
fi

python3 - "$conf/fixtures/webp-lossy" "$here" <<'PY'
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
OUT, SCRIPTS = Path(sys.argv[1]), Path(sys.argv[2])
sys.path.insert(0, str(SCRIPTS))
from make_webp_manifests import bitstream_kind, dwebp, frame_manifest, riff_chunks  # noqa: E402
from manifest_common import CONF, MANIFESTS, clean, files_under  # noqa: E402

CONVERT = os.environ.get("CONVERT", "convert")
if OUT.exists():
    shutil.rmtree(OUT)
OUT.mkdir(parents=True)
TMP = Path(tempfile.mkdtemp(prefix="webp-lossy-fixtures."))
MADE = {}      # name -> dict(recipe, expect)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p


# ---------------------------------------------------------------- sources (PNG files in TMP)

def source(key, w, h, *args):
    """convert ARGS -> TMP/key-WxH.png; ARGS may use {size}."""
    path = TMP / ("%s-%dx%d.png" % (key, w, h))
    size = "%dx%d" % (w, h)
    cmd = [CONVERT] + [a.format(size=size) for a in args] + ["-alpha", "off", "-depth", "8", str(path)]
    run(cmd)
    return {"path": path, "cmd": " ".join(cmd[1:-1]), "w": w, "h": h, "key": key}


def alpha_source(key, w, h, seed, mask):
    """Blurred plasma with an alpha channel: `ramp` (255 at the left to 0 at the right),
    `turned` (a W x H vertical ramp turned a quarter, so H x W over the W x H image: columns
    0...H-1 ramp, the rest opaque), `blobs` (0 or 255: a thresholded plasma) or `soft` (a
    blurred plasma: every level)."""
    masks = {"ramp": ["-size", "{h}x{w}", "gradient:white-black", "-rotate", "90"],
             "turned": ["-size", "{size}", "gradient:white-black", "-rotate", "90"],
             "blobs": ["-seed", str(seed + 1), "-size", "{size}", "plasma:fractal", "-blur", "0x3",
                       "-colorspace", "Gray", "-threshold", "50%"],
             "soft": ["-seed", str(seed + 1), "-size", "{size}", "plasma:fractal", "-blur", "0x2", "-colorspace", "Gray"]}
    path = TMP / ("%s-%dx%d.png" % (key, w, h))
    args = ["-seed", str(seed), "-size", "{size}", "plasma:fractal", "-blur", "0x1", "(", *masks[mask], ")",
            "-alpha", "off", "-compose", "CopyOpacity", "-composite", "-depth", "8"]
    cmd = [CONVERT] + [a.format(size="%dx%d" % (w, h), w=w, h=h) for a in args] + ["PNG32:" + str(path)]
    run(cmd)
    return {"path": path, "cmd": " ".join(cmd[1:-1]), "w": w, "h": h, "key": key}


def plasma(w, h, seed, blur=None):
    extra = ["-blur", "0x%s" % blur] if blur else []
    return source("plasma%s" % ("-blur" if blur else ""), w, h,
                  "-seed", str(seed), "-size", "{size}", "plasma:fractal", *extra)


# ---------------------------------------------------------------- encoders

def cwebp(src, tag, *options, expect=("VP8",)):
    """cwebp OPTIONS src -> OUT/<key>-<tag>-WxH.webp; records the recipe."""
    name = "%s-%s-%dx%d.webp" % (src["key"], tag, src["w"], src["h"])
    run(["cwebp", "-quiet", *options, str(src["path"]), "-o", str(OUT / name)])
    MADE[name] = {"recipe": "convert %s; cwebp %s" % (src["cmd"], " ".join(options)), "expect": expect}
    return name


def with_icc(base, tag):
    """webpmux -set icc: the same VP8 bitstream in an extended (VP8X) file with an ICCP chunk."""
    icc = TMP / "profile.icc"
    icc.write_bytes(b"ImageCodecs test ICC bytes, not a profile\0" * 4)
    stem, size = base.replace(".webp", "").rsplit("-", 1)
    name = "%s-%s-%s.webp" % (stem, tag, size)
    run(["webpmux", "-set", "icc", str(icc), str(OUT / base), "-o", str(OUT / name)])
    MADE[name] = dict(MADE[base], recipe=MADE[base]["recipe"] + "; webpmux -set icc (%d bytes)" % icc.stat().st_size,
                      expect=("VP8", "VP8X"))
    return name


def patched(base, tag, edits, why):
    """A copy of OUT/base with bytes replaced ({offset: value}); dwebp must still decode it."""
    data = bytearray((OUT / base).read_bytes())
    for offset, value in sorted(edits.items()):
        data[offset] = value
    stem, size = base.replace(".webp", "").rsplit("-", 1)
    name = "%s-%s-%s.webp" % (stem, tag, size)
    (OUT / name).write_bytes(bytes(data))
    how = ", ".join("byte %d = %d" % kv for kv in sorted(edits.items()))
    MADE[name] = dict(MADE[base], recipe=MADE[base]["recipe"] + "; then %s (%s)" % (how, why))
    return name


# ---------------------------------------------------------------- the fixtures

P = plasma(64, 48, 1, blur=1)
# Quality: the quantizer indices (and with them the dequantisation factors and filter levels).
for q in (0, 10, 50, 90, 100):
    cwebp(P, "q%d" % q, "-q", str(q))
cwebp(P, "default", )
# Spatial noise shaping: per-segment quantizer and filter deltas.
cwebp(P, "sns0", "-sns", "0")
cwebp(P, "sns100", "-sns", "100")
# Loop filter: off, weak, strong; sharpness; simple vs normal filter; auto filter.
cwebp(P, "f0", "-f", "0")
cwebp(P, "f20", "-f", "20")
cwebp(P, "f100", "-f", "100")
for s in (3, 7):
    cwebp(P, "f60-sharp%d" % s, "-f", "60", "-sharpness", str(s))
cwebp(P, "nostrong-f60", "-nostrong", "-f", "60")
cwebp(P, "nostrong-f100-sharp5", "-nostrong", "-f", "100", "-sharpness", "5")
cwebp(P, "strong-af", "-strong", "-af")
# Segments: 1 (no segment map) to 4.
for n in (1, 2, 3):
    cwebp(P, "seg%d" % n, "-segments", str(n))
# Mode decisions: -m 0 (16x16 modes), -m 6 (many B_PRED blocks), first-partition limits.
for m in (0, 2, 6):
    cwebp(P, "m%d" % m, "-m", str(m))
cwebp(P, "plimit100", "-partition_limit", "100")
cwebp(P, "sharpyuv", "-sharp_yuv")

B = plasma(128, 96, 2, blur=2)
cwebp(B, "q75", "-q", "75")
cwebp(B, "q30-seg4-f40-sharp2", "-q", "30", "-segments", "4", "-f", "40", "-sharpness", "2")
S = plasma(96, 64, 3)
cwebp(S, "q95-m6", "-q", "95", "-m", "6")
cwebp(S, "q5", "-q", "5")
cwebp(S, "preset-text", "-preset", "text")
cwebp(S, "preset-drawing-q60", "-preset", "drawing", "-q", "60")

# Noise at high quality: large coefficients (DCT_CAT5/6 tokens); low quality: heavy filtering.
N = source("noise", 32, 24, "-seed", "5", "-size", "{size}", "xc:gray", "+noise", "Random")
cwebp(N, "q100", "-q", "100", "-sns", "0")
cwebp(N, "q20", "-q", "20")
cwebp(source("gradient", 40, 30, "-size", "{size}", "gradient:#ff2000-#0030ff"), "q80", "-q", "80")
cwebp(source("checker", 64, 64, "-size", "{size}", "pattern:checkerboard"), "q70", "-q", "70")
cwebp(source("gray", 48, 40, "-seed", "6", "-size", "{size}", "plasma:fractal", "-blur", "0x1", "-colorspace", "Gray"),
      "q75", "-q", "75")

# Odd and tiny sizes; sizes around a macroblock (16) and the chroma's odd column/row.
for w, h in ((1, 1), (1, 9), (9, 1), (2, 2), (3, 5), (17, 3), (15, 15), (16, 16), (17, 17), (33, 31), (127, 65)):
    cwebp(plasma(w, h, 9), "q75", "-q", "75")

# A damaged first partition that dwebp still decodes (found by a differential run): its header
# turns segmentation on without segment feature data, which libwebp reads as absolute values
# of 0 (quantizer index 0, filter level 0 in every segment).
patched("gray-q75-48x40.webp", "segabs0", {30: 54, 146: 45}, "segmentation without feature data")

# The extended container: VP8X + ICCP + VP8.
with_icc("plasma-blur-default-64x48.webp", "icc")

# Alpha (RFC 9649 2.7.1.2: VP8X + ALPH + VP8): every -alpha_filter (none; fast and best pick
# horizontal, vertical or gradient per image) with -alpha_method 1 (a VP8L image stream) and
# -alpha_method 0 (raw), -alpha_q below 100 (level reduction: the pre-processing bit), -exact,
# odd and tiny sizes.
A = ("VP8+ALPH",)
# cwebp 1.2.4 filters only compressed alpha (with -alpha_method 0 the filter is always none);
# the corpus' alpha_filter_{1,2,3}_method_0 files have raw filtered alpha.
R = alpha_source("alpha-ramp", 48, 40, 11, "ramp")
cwebp(R, "am0", "-q", "75", "-alpha_method", "0", expect=A)
cwebp(R, "afnone-am1", "-q", "75", "-alpha_filter", "none", "-alpha_method", "1", expect=A)
cwebp(R, "affast-am1", "-q", "75", "-alpha_filter", "fast", "-alpha_method", "1", expect=A)
cwebp(alpha_source("alpha-turned", 48, 40, 11, "turned"), "affast", "-q", "75", "-alpha_filter", "fast", expect=A)
Bl = alpha_source("alpha-blobs", 37, 29, 12, "blobs")
cwebp(Bl, "q60-afbest", "-q", "60", "-alpha_filter", "best", expect=A)
cwebp(Bl, "alphaq20", "-alpha_q", "20", expect=A)
cwebp(Bl, "exact-am0", "-exact", "-alpha_method", "0", "-alpha_filter", "fast", expect=A)
SO = alpha_source("alpha-soft", 64, 48, 13, "soft")
for f in ("none", "fast", "best"):
    cwebp(SO, "af%s" % f, "-alpha_filter", f, "-alpha_method", "1", expect=A)
cwebp(SO, "alphaq50-am0-afbest", "-alpha_q", "50", "-alpha_method", "0", "-alpha_filter", "best", expect=A)
for w, h in ((1, 1), (3, 5), (17, 3), (33, 31)):
    cwebp(alpha_source("alpha-soft", w, h, 14, "soft"), "afbest", "-alpha_filter", "best", expect=A)


# ---------------------------------------------------------------- checks

def check(name, spec):
    data = (OUT / name).read_bytes()
    problems = []
    chunks = riff_chunks(data)
    kind = bitstream_kind(chunks)
    if kind != spec["expect"][0]:
        problems.append("bitstream is %s, not %s" % (kind, spec["expect"][0]))
    names = [c for c, _ in chunks or []]
    if "VP8X" in spec["expect"] and (names[:1] != ["VP8X"] or "ICCP" not in names):
        problems.append("chunks %s: expected VP8X with ICCP" % names)
    d = dwebp(OUT / name)
    if d["status"] != "ok":
        problems.append("dwebp: %s %s" % (d["status"], d["msg"]))
    return problems


def alph_header(name):
    """-> (method, filter, pre-processing) of the file's ALPH chunk, or None."""
    for fourcc, payload in riff_chunks((OUT / name).read_bytes()) or []:
        if fourcc == "ALPH" and payload:
            return payload[0] & 3, payload[0] >> 2 & 3, payload[0] >> 4 & 3
    return None


failed = False
alph = {n: alph_header(n) for n in MADE if alph_header(n)}
for n, (m, f, pre) in alph.items():
    MADE[n]["recipe"] += "; ALPH: method %d, filter %d, pre-processing %d" % (m, f, pre)
covered = {(m, f) for m, f, _ in alph.values()}
if {m for m, _ in covered} != {0, 1} or {f for m, f in covered if m == 1} != {0, 1, 2, 3} \
        or {p for *_, p in alph.values()} != {0, 1}:
    print("ALPH coverage: methods/filters %s, pre-processing %s: want both methods, all four filters and both "
          "pre-processing values" % (sorted(covered), sorted({p for *_, p in alph.values()})), file=sys.stderr, flush=True)
    failed = True
seen = {}
for name in sorted(MADE):
    seen.setdefault((OUT / name).read_bytes(), []).append(name)
for names in seen.values():
    if len(names) > 1:
        print("identical files: %s" % ", ".join(names), file=sys.stderr, flush=True)
        failed = True
for name, spec in sorted(MADE.items()):
    for p in check(name, spec):
        print("%s: %s" % (name, p), file=sys.stderr, flush=True)
        failed = True

with open(OUT / "RECIPES.tsv", "w", encoding="utf-8", newline="\n") as f:
    f.write("# Made by Conformance/scripts/make_webp_lossy_fixtures.sh: per fixture, how it was made.\n")
    for name, spec in sorted(MADE.items()):
        f.write("%s\t%s\n" % (name, spec["recipe"]))
shutil.rmtree(TMP)
total = sum(f.stat().st_size for f in OUT.glob("*.webp"))
print("make_webp_lossy_fixtures.sh: %d files, %d bytes in %s" % (len(MADE), total, OUT), flush=True)
if failed:
    raise SystemExit("make_webp_lossy_fixtures.sh: some fixtures are not what their names say (above)")

# The manifest, from dwebp (the same function as fixtures-webp.tsv's).
notes = {"fixtures/webp-lossy/" + n: clean(s["recipe"]) for n, s in MADE.items()}
files = files_under(OUT, suffixes=(".webp",))
title = ("Generated lossy WebP fixtures (paths relative to Conformance/); made by "
         "scripts/make_webp_lossy_fixtures.sh.")
frame_manifest(files, CONF, MANIFESTS / "fixtures-webp-lossy.tsv", title, notes=notes)
PY
