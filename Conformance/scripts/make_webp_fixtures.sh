#!/usr/bin/env bash
# Regenerate the project's own lossless WebP fixtures (Conformance/fixtures/webp/*.webp and
# RECIPES.tsv), then their manifest (fixtures-webp.tsv) from the reference decoder (dwebp).
#
#   bash Conformance/scripts/make_webp_fixtures.sh
#
# What it makes, and from what:
#  * sources: synthetic images written by ImageMagick's convert with fixed seeds: plasma
#    fractals (sharp and blurred: photo-like), per-pixel noise, gradients, a checkerboard,
#    grey, alpha ramps and binary alpha over noise (RGB hidden under alpha 0), and palette
#    images of 2, 4, 16, 256 and 600 colours (no dithering);
#  * encoder: libwebp's cwebp -lossless at -z 0..9, -exact (keep RGB under alpha 0), -q/-m
#    pairs, and -near_lossless 20/60 (lossless bitstream of a pre-quantised image); plus webpmux
#    -set icc for one extended-format (VP8X + ICCP + VP8L) file.
# The palette sizes choose the colour-indexing transform's pixel bundling (RFC 9649 4.4): 2
# colours pack 8 indices per pixel, 4 colours 4, 16 colours 2, 256 colours 1; widths that are
# not multiples of 8 leave a partly used last pixel. File names say what each file tests:
# <source>-<options>-<W>x<H>.webp; RECIPES.tsv has, per file, the convert and cwebp commands and
# the features cwebp -v reports (transforms used, histogram/transform/cache bits).
# Every file is checked before the script ends: it must be a RIFF/WEBP file whose bitstream is
# VP8L, dwebp must decode it, and the features its name promises must be in cwebp's report
# (PALETTE for pal*, a colour cache where -cache is in the name, ...).
#
# Needs: convert (apt: imagemagick), cwebp, dwebp, webpmux (apt: webp). Output is deterministic
# for given versions of these tools (Conformance/README.md, WebP).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
conf="$(dirname "$here")"

missing=()
command -v "${CONVERT:-convert}" >/dev/null || missing+=("convert (apt: imagemagick)")
for tool in cwebp dwebp webpmux img2webp gif2webp; do
    command -v "$tool" >/dev/null || missing+=("$tool (apt: webp)")
done
if [ ${#missing[@]} -gt 0 ]; then
    for m in "${missing[@]}"; do printf 'make_webp_fixtures.sh: missing %s\n' "$m" >&2; done
    exit 1
fi

python3 - "$conf/fixtures/webp" "$here" <<'PY'
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
OUT, SCRIPTS = Path(sys.argv[1]), Path(sys.argv[2])
sys.path.insert(0, str(SCRIPTS))
from make_webp_manifests import bitstream_kind, dwebp, riff_chunks  # noqa: E402

CONVERT = os.environ.get("CONVERT", "convert")
if OUT.exists():
    shutil.rmtree(OUT)
OUT.mkdir(parents=True)
TMP = Path(tempfile.mkdtemp(prefix="webp-fixtures."))
MADE = {}      # name -> dict(recipe, features, expect)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p


# ---------------------------------------------------------------- sources (PNG files in TMP)

SOURCES = {}


def source(key, w, h, *args):
    """convert ARGS -> TMP/key.png (a w x h image); ARGS may use {w} {h} {size}."""
    path = TMP / ("%s-%dx%d.png" % (key, w, h))
    size = "%dx%d" % (w, h)
    cmd = [CONVERT] + [a.format(w=w, h=h, size=size) for a in args] + ["-depth", "8", str(path)]
    run(cmd)
    SOURCES[(key, w, h)] = {"path": path, "cmd": " ".join(cmd[1:-1]), "w": w, "h": h, "key": key}
    return SOURCES[(key, w, h)]


def plasma(w, h, seed, blur=None):
    extra = ["-blur", "0x%s" % blur] if blur else []
    return source("plasma%s" % ("-blur" if blur else ""), w, h,
                  "-seed", str(seed), "-size", "{size}", "plasma:fractal", *extra)


def palette(w, h, colours, seed=4):
    return source("pal%d" % colours, w, h, "-seed", str(seed), "-size", "{size}", "plasma:fractal",
                  "+dither", "-colors", str(colours))


def alpha_ramp(w, h, seed):
    """Blurred plasma whose alpha falls from 255 (left) to 0 (right); the last columns are
    fully transparent with their colour kept (what -exact preserves)."""
    return source("alpha-ramp", w, h, "-seed", str(seed), "-size", "{size}", "plasma:fractal",
                  "-blur", "0x1", "(", "-size", "{h}x{w}", "gradient:white-black", "-rotate", "90", ")",
                  "-alpha", "off", "-compose", "CopyOpacity", "-composite")


def alpha_binary(w, h, seed):
    """Noise whose alpha is 0 or 255 in blobs (a thresholded blurred plasma): much RGB under alpha 0."""
    return source("alpha-binary", w, h, "-seed", str(seed), "-size", "{size}", "xc:gray", "+noise", "Random",
                  "(", "-seed", str(seed + 1), "-size", "{size}", "plasma:fractal", "-blur", "0x3",
                  "-colorspace", "Gray", "-threshold", "50%", ")",
                  "-alpha", "off", "-compose", "CopyOpacity", "-composite")


# ---------------------------------------------------------------- encoders

FEATURE_RE = re.compile(r"Lossless features used: *(.*)")
BITS_RE = re.compile(r"Precision Bits: histogram=(\d+) transform=(\d+) cache=(\d+)")


def cwebp(src, tag, *options, expect=()):
    """cwebp -v OPTIONS src -> OUT/<key>-<tag>-WxH.webp; records the recipe and the features."""
    name = "%s-%s-%dx%d.webp" % (src["key"], tag, src["w"], src["h"])
    p = run(["cwebp", "-v", *options, str(src["path"]), "-o", str(OUT / name)])
    feats = FEATURE_RE.search(p.stderr)
    bits = BITS_RE.search(p.stderr)
    features = (feats.group(1).strip() if feats else "NONE").split()
    MADE[name] = {
        "recipe": "convert %s; cwebp %s" % (src["cmd"], " ".join(options)),
        "features": features,
        "bits": tuple(int(b) for b in bits.groups()) if bits else None,
        "expect": expect,
    }
    return name


def with_icc(base, tag):
    """webpmux -set icc: the same VP8L bitstream in an extended (VP8X) file with an ICCP chunk."""
    icc = TMP / "profile.icc"
    # Not a real profile: webpmux and dwebp do not interpret ICC bytes, and neither does the decoder.
    icc.write_bytes(b"ImageCodecs test ICC bytes, not a profile\0" * 4)
    name = base.replace(".webp", "").rsplit("-", 1)
    name = "%s-%s-%s.webp" % (name[0], tag, name[1])
    run(["webpmux", "-set", "icc", str(icc), str(OUT / base), "-o", str(OUT / name)])
    MADE[name] = dict(MADE[base], recipe=MADE[base]["recipe"] + "; webpmux -set icc (%d bytes)" % icc.stat().st_size,
                      expect=("VP8X",))
    return name


# ---------------------------------------------------------------- the fixtures

# Effort levels on one photo-like source: each -z preset picks other transforms, block sizes,
# histogram (meta prefix code) precision and cache sizes.
P = plasma(64, 48, 1, blur=1)
# (-z 7 and 8 give the same file as -z 6 and 9 here, and -q/-m pairs the same as some -z.)
for z in (0, 1, 2, 3, 4, 5, 6, 9):
    cwebp(P, "z%d" % z, "-lossless", "-z", str(z))

# A larger one, for meta prefix codes over many blocks and long LZ77 distances.
B = plasma(128, 96, 2, blur=2)
cwebp(B, "z9", "-lossless", "-z", "9", expect=("PREDICTION",))
cwebp(B, "z5", "-lossless", "-z", "5")
S = plasma(96, 64, 3)
cwebp(S, "z6", "-lossless", "-z", "6")

# Noise (literals), a gradient (prediction), a checkerboard (LZ77 with 2D distances), grey.
cwebp(source("noise", 32, 24, "-seed", "5", "-size", "{size}", "xc:gray", "+noise", "Random"), "z6", "-lossless", "-z", "6")
cwebp(source("gradient", 40, 30, "-size", "{size}", "gradient:#ff2000-#0030ff"), "z9", "-lossless", "-z", "9")
cwebp(source("checker", 64, 64, "-size", "{size}", "pattern:checkerboard"), "z9", "-lossless", "-z", "9")
cwebp(source("gray", 48, 40, "-seed", "6", "-size", "{size}", "plasma:fractal", "-blur", "0x1", "-colorspace", "Gray"),
      "z6", "-lossless", "-z", "6")

# Alpha: -exact keeps the colour under alpha 0 (the canonical hash zeroes it either way).
A = alpha_ramp(48, 40, 7)
cwebp(A, "exact-z6", "-lossless", "-exact", "-z", "6")
cwebp(A, "z6", "-lossless", "-z", "6")
cwebp(A, "exact-z9", "-lossless", "-exact", "-z", "9")
AB = alpha_binary(40, 32, 8)
cwebp(AB, "exact-z3", "-lossless", "-exact", "-z", "3")
cwebp(AB, "z9", "-lossless", "-z", "9")

# Colour indexing with pixel bundling: 2, 4, 16 colours (8, 4, 2 indices per pixel) on widths
# that leave a partly used last pixel, 256 colours (no bundling), 600 (no palette: a cache).
for n in (2, 4, 16, 256):
    cwebp(palette(37, 23, n), "z6", "-lossless", "-z", "6", expect=("PALETTE",))
cwebp(palette(61, 40, 4), "z6", "-lossless", "-z", "6", expect=("PALETTE",))
cwebp(palette(61, 40, 16), "z6", "-lossless", "-z", "6", expect=("PALETTE",))
# At -z 9 cwebp tries every option and drops the palette for these two (a colour cache instead).
cwebp(palette(64, 48, 2), "z9", "-lossless", "-z", "9")
cwebp(palette(61, 40, 16), "z9", "-lossless", "-z", "9")
cwebp(palette(64, 48, 256), "z9", "-lossless", "-z", "9", expect=("PALETTE",))
cwebp(palette(64, 48, 600), "z6", "-lossless", "-z", "6")

# Near-lossless: the encoder quantises first; the bitstream is ordinary VP8L.
cwebp(P, "near60", "-near_lossless", "60")
cwebp(B, "near20", "-near_lossless", "20")

# Odd and tiny sizes: 1x1, one row, one column, sizes below any block size.
for w, h in ((1, 1), (1, 9), (9, 1), (3, 5), (17, 3)):
    cwebp(plasma(w, h, 9), "z6", "-lossless", "-z", "6")
cwebp(palette(5, 3, 2, seed=10), "z6", "-lossless", "-z", "6", expect=("PALETTE",))

# The extended container: VP8X + ICCP + VP8L.
with_icc("plasma-blur-z6-64x48.webp", "icc")



# ---------------------------------------------------------------- animations

# Animated fixtures (RFC 9649 2.7: VP8X + ANIM + ANMF frames, VP8L, or VP8 with or without ALPH in
# the *-lossy-* and *-mixed-* files). Their reference
# is libwebp's WebPAnimDecoder (scripts/webp_anim.c), not dwebp; make_webp_manifests.py writes
# fixtures-webp-anim.tsv (frames) and fixtures-webp-anim-info.tsv (Pillow: count, loop, durations).
#  * img2webp -lossless: WebPAnimEncoder picks sub-rectangles, offsets, blend and dispose itself
#    (-kmin/-kmax: key frames; -min_size: tries every choice);
#  * gif2webp (lossless by default): GIF fixtures with transparency and disposal;
#  * webpmux -frame FILE +duration+x+y+dispose(0|1)+b|-b: exact control of offsets (even),
#    dispose, blend, loop count and background colour, on cwebp -lossless -exact frames with
#    partial alpha (libwebp's own blend rounding shows only there).
ANIMS = {}   # name -> recipe
SIZES = {}   # frame PNG path -> (w, h)


def frames_png(key, w, h, n, alpha):
    """n PNG frames w x h: plasma with seeds 20.., alpha 255, a ramp, or binary blobs."""
    out = []
    for i in range(n):
        if alpha == "ramp":
            src = alpha_ramp(w, h, 20 + i)
        elif alpha == "binary":
            src = alpha_binary(w, h, 20 + i)
        else:
            src = plasma(w, h, 20 + i)
        path = TMP / ("%s-%d.png" % (key, i))
        shutil.copy(src["path"], path)
        SIZES[path] = (w, h)
        out.append((path, src["cmd"]))
    return out


def img2webp(name, frames, *options, per_frame=None, mode="-lossless"):
    """mode: the per-frame -lossless or -lossy, or None (with the global -mixed option)."""
    args = ["img2webp", *options]
    for i, (path, _) in enumerate(frames):
        args += (per_frame(i) if per_frame else []) + ([mode] if mode else []) + [str(path)]
    run(args + ["-o", str(OUT / name)])
    ANIMS[name] = "convert %s (x%d); %s" % (frames[0][1], len(frames), " ".join(
        a if not a.startswith(str(TMP)) else Path(a).name for a in args[1:]))


def gif2webp(name, gif, *options):
    run(["gif2webp", *options, str(CONF_DIR / "fixtures" / "gif" / gif), "-o", str(OUT / name)])
    ANIMS[name] = "gif2webp %s fixtures/gif/%s" % (" ".join(options), gif)


def webpmux(name, frames, specs, *options, encoders=None):
    """frames: PNG paths; specs: '+d+x+y+m+b' per frame; each frame made with cwebp -lossless -exact,
    or with encoders[i] (cwebp options) when given."""
    args = ["webpmux"]
    encoders = encoders or [["-lossless", "-exact"]] * len(frames)
    for i, ((path, _), spec) in enumerate(zip(frames, specs)):
        webp = TMP / ("%s-%d.webp" % (name, i))
        run(["cwebp", "-quiet", *encoders[i], str(path), "-o", str(webp)])
        args += ["-frame", str(webp), spec]
    run(args + list(options) + ["-o", str(OUT / name)])
    how = " / ".join(" ".join(e) for e in encoders) if len({tuple(e) for e in encoders}) > 1 else " ".join(encoders[0])
    ANIMS[name] = "convert %s ...; cwebp %s; webpmux %s %s" % (
        frames[0][1], how, " ".join("-frame F%d %s" % (i, s) for i, s in enumerate(specs)), " ".join(options))


CONF_DIR = OUT.parent.parent
opaque = frames_png("opaque", 32, 24, 4, None)
ramp = frames_png("ramp", 32, 24, 4, "ramp")
small = frames_png("small", 16, 12, 4, "ramp")
binary = frames_png("binary", 16, 12, 3, "binary")
img2webp("anim-img2webp-opaque-loop0-32x24.webp", opaque, "-loop", "0", per_frame=lambda i: ["-d", "80"])
img2webp("anim-img2webp-ramp-loop3-32x24.webp", ramp, "-loop", "3",
         per_frame=lambda i: ["-d", str((50, 120, 5, 10)[i])])
img2webp("anim-img2webp-ramp-keyframes-32x24.webp", ramp, "-kmax", "1", "-loop", "1")
img2webp("anim-img2webp-ramp-minsize-32x24.webp", ramp, "-min_size")
gif2webp("anim-gif2webp-dispose-background-32x24.webp", "im-dispose-background-32x24.gif")
gif2webp("anim-gif2webp-dispose-previous-32x24.webp", "gs-dispose-previous-32x24.gif")
gif2webp("anim-gif2webp-minsize-40x30.webp", "gs-O3-40x30.gif", "-min_size")
gif2webp("anim-gif2webp-delays-16x10.webp", "im-delays-0-1-20-noloop-16x10.gif")
# Lossy and mixed animations (VP8 frames, with ALPH where a frame has alpha): img2webp -lossy
# (-q per frame), -mixed (the encoder picks lossy or lossless per frame), gif2webp -lossy.
img2webp("anim-img2webp-lossy-opaque-32x24.webp", opaque, "-loop", "0", per_frame=lambda i: ["-d", "60", "-q", "70"],
         mode="-lossy")
img2webp("anim-img2webp-lossy-ramp-32x24.webp", ramp, "-loop", "2", per_frame=lambda i: ["-d", str((40, 10, 100, 20)[i])],
         mode="-lossy")
img2webp("anim-img2webp-lossy-ramp-keyframes-32x24.webp", ramp, "-kmax", "1", per_frame=lambda i: ["-q", "50"],
         mode="-lossy")
img2webp("anim-img2webp-mixed-ramp-32x24.webp", ramp + opaque[:2], "-mixed", mode=None)
gif2webp("anim-gif2webp-lossy-dispose-background-32x24.webp", "im-dispose-background-32x24.gif", "-lossy")
gif2webp("anim-gif2webp-lossy-dispose-previous-32x24.webp", "gs-dispose-previous-32x24.gif", "-lossy", "-q", "60")
gif2webp("anim-gif2webp-lossy-minsize-40x30.webp", "gs-O3-40x30.gif", "-lossy", "-min_size")
# Lossless, lossy and lossy-with-alpha frames (ALPH filters and methods) in one animation.
webpmux("anim-mux-mixed-32x24.webp", [ramp[2]] + small[:2] + binary[:2],
        ["+50+0+0+0+b", "+50+8+6+0+b", "+50+16+10+1+b", "+50+4+2+0-b", "+50+14+8+0+b"], "-loop", "0",
        encoders=[["-q", "80", "-alpha_filter", "best", "-alpha_method", "1"], ["-lossless", "-exact"],
                  ["-q", "60", "-alpha_filter", "none", "-alpha_method", "0"], ["-q", "70", "-alpha_method", "0", "-alpha_filter", "fast"],
                  ["-lossless"]])
# Canvas 32x24 from the first (full) frame; 16x12 frames at even offsets.
webpmux("anim-mux-blend-32x24.webp", [ramp[0]] + small[:3],
        ["+100+0+0+0-b", "+100+8+6+0+b", "+50+16+10+0+b", "+11+4+2+0+b"], "-loop", "2")
webpmux("anim-mux-noblend-32x24.webp", [ramp[0]] + small[:3],
        ["+100+0+0+0+b", "+100+8+6+0-b", "+0+16+10+0-b", "+10+2+4+0+b"], "-loop", "0")
webpmux("anim-mux-dispose-32x24.webp", [ramp[1]] + small[1:4],
        ["+70+0+0+1+b", "+70+8+6+1+b", "+70+10+8+0+b", "+70+0+0+1+b"], "-loop", "65535",
        "-bgcolor", "255,255,0,0")
webpmux("anim-mux-dispose-keyframe-32x24.webp", [small[0], small[1], binary[0], binary[1]],
        ["+40+0+0+1+b", "+40+16+12+1+b", "+40+8+6+0+b", "+40+4+4+1+b"], "-bgcolor", "128,0,0,255")
webpmux("anim-mux-opaque-offsets-32x24.webp", [opaque[0]] + [(binary[2][0], binary[2][1])],
        ["+30+0+0+0+b", "+30+14+10+0+b"], "-loop", "7")
# Seeded random compositions (webpmux): frames of 8x6, 16x12 and 32x24 with partial or binary
# alpha at random even offsets, each with a random dispose, blend and duration (0, 5, 10, 11, 40
# or 100 ms), on a 32x24 canvas whose first frame is full. They reach the WebPAnimDecoder rules
# the hand-made files may miss: key frames after dispose-to-background chains, blending next to a
# disposed rectangle, blending over transparent canvas.
tiny = frames_png("tiny", 8, 6, 3, "ramp")
pool = tiny + small + binary + ramp
rng = random.Random(9649)
for k in range(6):
    chosen = [ramp[rng.randrange(len(ramp))]] + [pool[rng.randrange(len(pool))] for _ in range(4)]
    specs = []
    for path, _ in chosen:
        w, h = SIZES[path]
        x = 2 * rng.randrange((32 - w) // 2 + 1)
        y = 2 * rng.randrange((24 - h) // 2 + 1)
        specs.append("+%d+%d+%d+%d%sb" % (rng.choice((0, 5, 10, 11, 40, 100)), x, y, rng.randrange(2),
                                          rng.choice("+-")))
    specs[0] = "+%d+0+0+%d%sb" % (rng.choice((40, 100)), rng.randrange(2), rng.choice("+-"))
    webpmux("anim-mux-random%d-32x24.webp" % k, chosen, specs, "-loop", str(rng.randrange(4)))
for name in ANIMS:
    names = [c for c, _ in riff_chunks((OUT / name).read_bytes()) or []]
    inner = [b"VP8 " if k == b"ALPH" else k for k in re.findall(rb"ANMF.{20}(VP8[ L]|ALPH)", (OUT / name).read_bytes(), re.S)]
    lossy = "-lossy-" in name or "-mixed-" in name
    if "ANMF" not in names or (not lossy and any(k != b"VP8L" for k in inner)) or (lossy and b"VP8 " not in inner):
        print("%s: not an all-lossless animation, or a lossy one without VP8 frames: %s" % (name, names),
              file=sys.stderr, flush=True)
        raise SystemExit(1)

# ---------------------------------------------------------------- checks

def check(name, spec):
    data = (OUT / name).read_bytes()
    problems = []
    chunks = riff_chunks(data)
    kind = bitstream_kind(chunks)
    if kind != "VP8L":
        problems.append("bitstream is %s, not VP8L" % kind)
    names = [c for c, _ in chunks or []]
    for e in spec["expect"]:
        if e == "VP8X":
            if names[:1] != ["VP8X"] or "ICCP" not in names:
                problems.append("chunks %s: expected VP8X with ICCP" % names)
        elif e not in spec["features"]:
            problems.append("cwebp reports %s, expected %s" % (" ".join(spec["features"]), e))
    d = dwebp(OUT / name)
    if d["status"] != "ok":
        problems.append("dwebp: %s %s" % (d["status"], d["msg"]))
    return problems


failed = False
seen = {}
for name in sorted(MADE) + sorted(ANIMS):
    seen.setdefault((OUT / name).read_bytes(), []).append(name)
for names in seen.values():
    if len(names) > 1:
        print("identical files: %s" % ", ".join(names), file=sys.stderr, flush=True)
        failed = True
for name, spec in sorted(MADE.items()):
    for p in check(name, spec):
        print("%s: %s" % (name, p), file=sys.stderr, flush=True)
        failed = True

# The suite as a whole must reach every coding tool: the four transforms, a colour cache,
# meta prefix codes (histogram bits below the image size), pixel bundling.
every = set(f for s in MADE.values() for f in s["features"])
for want in ("PREDICTION", "CROSS-COLOR-TRANSFORM", "SUBTRACT-GREEN", "PALETTE"):
    if want not in every:
        print("no fixture uses %s" % want, file=sys.stderr)
        failed = True
if not any(s["bits"] and s["bits"][2] > 0 for s in MADE.values()):
    print("no fixture uses a colour cache", file=sys.stderr)
    failed = True

with open(OUT / "RECIPES.tsv", "w", encoding="utf-8", newline="\n") as f:
    f.write("# Made by Conformance/scripts/make_webp_fixtures.sh: per fixture, how it was made, and what cwebp -v\n")
    f.write("# reported (transforms used; histogram = meta prefix code bits, transform = block bits, cache bits).\n")
    for name, spec in sorted(MADE.items()):
        bits = "histogram=%d transform=%d cache=%d" % spec["bits"] if spec["bits"] else "no bits reported"
        f.write("%s\t%s; features: %s; %s\n" % (name, spec["recipe"], " ".join(spec["features"]), bits))
    for name, recipe in sorted(ANIMS.items()):
        f.write("%s\t%s; animated (reference: WebPAnimDecoder)\n" % (name, recipe))
shutil.rmtree(TMP)
total = sum(f.stat().st_size for f in OUT.glob("*.webp"))
print("make_webp_fixtures.sh: %d files (%d animated), %d bytes in %s" % (len(MADE) + len(ANIMS), len(ANIMS), total, OUT), flush=True)
if failed:
    raise SystemExit("make_webp_fixtures.sh: some fixtures are not what their names say (above)")
PY

python3 "$here/make_webp_manifests.py" fixtures
