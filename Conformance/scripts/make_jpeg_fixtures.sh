#!/usr/bin/env bash
# Regenerate the project's own JPEG fixtures (Conformance/fixtures/jpeg/*.jpg), then their
# manifests (fixtures-jpeg.tsv, fixtures-jpeg-info.tsv) from the reference decoder.
#
#   bash Conformance/scripts/make_jpeg_fixtures.sh
#
# What it makes, and from what:
#  * sources: synthetic RGB patterns written by the Python below (gradients, per-channel noise,
#    saturated rectangles with hard edges, an inverted checkerboard; random.Random with fixed
#    seeds), and small crops of three Kodak photos of the shared corpus
#    (photos/kodak/kodim{03,05,23}.png) cut with Pillow at run time: no corpus file is copied;
#  * encoders: libjpeg-turbo's cjpeg (quality 1..100, -sample, -progressive, -arithmetic,
#    -restart N and NB, -grayscale, -rgb, -optimize, -baseline, -scans, -icc) and jpegtran
#    (-progressive, -arithmetic, -restart, sequential from progressive), plus two byte-level
#    edits: an APP1 Exif segment holding only IFD0 Orientation 1..8 (little- and big-endian
#    TIFF) inserted after APP0, and a 150 KB ICC profile (a valid header and tag table; its TRC
#    is a sampled 'curv' of 74 000 entries) that cjpeg -icc splits over 3 APP2 chunks.
# File names say what each file tests: [kodimNN-]q<quality>-<sampling>[-<options>]-<W>x<H>.jpg,
# where sampling is 444 422 440 420 411 (4x1) 410 (4x2), gray, rgb, or s<HxV>-<HxV>-<HxV>;
# options are prog, arith, opt, baseline (8-bit tables forced), rst<N>row, rst<N>b,
# noninterleaved (one scan per component), progcustom (the scan script below), icc-<N>chunk[s];
# jpegtran copies add -jt-<what>; arithmetic copies whose scans use conditioning tables 4–15 add
# -tables-4-15; exif-orientation-<N>-<le|be>-24x16.jpg.
# Every file is checked before the script ends: its markers must be what its name says (SOF
# type, sampling factors, DRI, 16-bit DQT, scans, Adobe transform, Exif orientation, ICC chunks
# and bytes), djpeg must decode it without a warning, and jpegtran and Exif copies must decode
# to the same pixels as the file they came from. Keep every file <= 64x64 except a few <= 256x256.
#
# Needs: cjpeg, djpeg, jpegtran (apt: libjpeg-turbo-progs), Pillow (pip: Pillow), and the
# shared corpus' Kodak photos ($IMAGECODECS_CORPUS, else ../shared/corpus beside the project
# root). Output is deterministic for given versions of these tools (Conformance/README.md, JPEG).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
conf="$(dirname "$here")"
corpus="${IMAGECODECS_CORPUS:-$(cd "$conf/../.." && pwd)/shared/corpus}"

missing=()
for tool in cjpeg djpeg jpegtran; do
    command -v "$tool" >/dev/null || missing+=("$tool (apt: libjpeg-turbo-progs)")
done
python3 -c 'import PIL' 2>/dev/null || missing+=("Pillow (pip: Pillow)")
[ -d "$corpus/photos/kodak" ] || missing+=("the corpus photos at $corpus/photos/kodak (set IMAGECODECS_CORPUS)")
if [ ${#missing[@]} -gt 0 ]; then
    for m in "${missing[@]}"; do printf 'make_jpeg_fixtures.sh: missing %s\n' "$m" >&2; done
    exit 1
fi

python3 - "$conf/fixtures/jpeg" "$corpus" "$here" <<'PY'
import random
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
OUT, CORPUS, SCRIPTS = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
sys.path.insert(0, str(SCRIPTS))
from make_jpeg_manifests import djpeg, exif_orientation, parse_jpeg, sampling  # noqa: E402

if OUT.exists():
    shutil.rmtree(OUT)
OUT.mkdir(parents=True)
TMP = Path(tempfile.mkdtemp(prefix="jpeg-fixtures."))
MADE = {}      # name -> dict(path, expect)


# ---------------------------------------------------------------- sources (PPM files in TMP)

COLOURS = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (255, 0, 255), (0, 255, 255),
           (255, 255, 255), (0, 0, 0)]


def clamp(v):
    return 0 if v < 0 else 255 if v > 255 else int(v)


def pattern(w, h, seed):
    """Gradients in R and G, B falling along the diagonal, per-channel noise (+-20), an inverted
    2x2 checkerboard in the lower-left quarter, and three saturated rectangles with hard edges
    (chroma edges are where upsampling shows)."""
    rnd = random.Random(seed)
    rects = [(rnd.randrange(w), rnd.randrange(h), rnd.randrange(1, max(2, w // 2)),
              rnd.randrange(1, max(2, h // 2)), rnd.choice(COLOURS)) for _ in range(3)]
    out = bytearray()
    for y in range(h):
        for x in range(w):
            fx, fy = x / max(w - 1, 1), y / max(h - 1, 1)
            rgb = [255 * fx, 255 * fy, 255 * (1 - (fx + fy) / 2)]
            if x < w // 2 and y >= h // 2 and (x // 2 + y // 2) % 2:
                rgb = [255 - c for c in rgb]
            for rx, ry, rw, rh, colour in rects:
                if rx <= x < rx + rw and ry <= y < ry + rh:
                    rgb = list(colour)
            out += bytes(clamp(c + rnd.randint(-20, 20)) for c in rgb)
    return bytes(out)


def source(key, w, h, rgb):
    path = TMP / ("%s.ppm" % key)
    path.write_bytes(b"P6\n%d %d\n255\n" % (w, h) + rgb)
    return {"key": key, "path": path, "w": w, "h": h}


def synthetic(w, h, seed):
    return source("pattern-%dx%d-%d" % (w, h, seed), w, h, pattern(w, h, seed))


def kodak(name, box):
    from PIL import Image
    with Image.open(CORPUS / "photos" / "kodak" / (name + ".png")) as im:
        crop = im.convert("RGB").crop(box)
        return source(name, crop.size[0], crop.size[1], crop.tobytes())


# ---------------------------------------------------------------- encoders

SAMPLING = {"444": "1x1,1x1,1x1", "422": "2x1,1x1,1x1", "440": "1x2,1x1,1x1", "420": "2x2,1x1,1x1",
            "411": "4x1,1x1,1x1", "410": "4x2,1x1,1x1", "rgb": "1x1,1x1,1x1", "gray": "1x1", "gray2x2": "2x2"}

# progcustom: DC of luma alone and of chroma interleaved, both with successive approximation;
# luma AC split at 9 with a refinement of the whole band; chroma AC in one band each, refined.
PROGRESSIVE_SCRIPT = """
0: 0 0 0 1;
1 2: 0 0 0 1;
0: 1 9 0 2;
0: 10 63 0 2;
2: 1 63 0 1;
1: 1 63 0 1;
0: 1 63 2 1;
0 1 2: 0 0 1 0;
0: 1 63 1 0;
1: 1 63 1 0;
2: 1 63 1 0;
"""
SCRIPTS_FILES = {"noninterleaved": "0;\n1;\n2;\n", "progcustom": PROGRESSIVE_SCRIPT}
LUMA_MAX = 121   # the largest entry of the T.81 Annex K luminance table cjpeg scales


def scale_factor(q):
    """jcparam.c jpeg_quality_scaling."""
    q = max(1, min(100, q))
    return 5000 // q if q < 50 else 200 - q * 2


def cjpeg(src, q, samp, *options, prefix="", icc=None, icc_tag=None):
    """Encodes `src` with cjpeg; the name and the expected structure follow from the arguments."""
    tags = options + ((icc_tag,) if icc_tag else ())
    name = "%sq%d-%s%s-%dx%d.jpg" % (prefix, q, samp, "".join("-" + t for t in tags), src["w"], src["h"])
    args = ["-quality", str(q)]
    factors = samp[1:].replace("-", ",") if samp.startswith("s") else SAMPLING[samp]
    if samp.startswith("gray"):
        args.append("-grayscale")
    elif samp == "rgb":
        args.append("-rgb")
    args += ["-sample", factors]
    expect = {"size": (src["w"], src["h"]), "sampling": factors, "dri": None, "scans": None,
              "adobe": 0 if samp == "rgb" else None}
    for o in options:
        if o == "prog":
            args.append("-progressive")
        elif o == "arith":
            args.append("-arithmetic")
        elif o == "opt":
            args.append("-optimize")
        elif o == "baseline":
            args.append("-baseline")
        elif o.startswith("rst"):
            n = o[3:-3] if o.endswith("row") else o[3:-1]
            args += ["-restart", n + ("" if o.endswith("row") else "B")]
            expect["dri"] = "rows" if o.endswith("row") else int(n)
        elif o in SCRIPTS_FILES:
            script = TMP / (o + ".txt")
            script.write_text(SCRIPTS_FILES[o])
            args += ["-scans", str(script)]
            expect["scans"] = SCRIPTS_FILES[o].count(";")
        else:
            raise SystemExit("unknown option " + o)
    if icc is not None:
        args += ["-icc", str(icc)]
    progressive = "prog" in options or "progcustom" in options
    extended = "baseline" not in options and (LUMA_MAX * scale_factor(q) + 50) // 100 > 255
    expect["dqt16"] = extended
    expect["sof"] = (0xCA if progressive else 0xC9) if "arith" in options else \
        0xC2 if progressive else 0xC1 if extended else 0xC0
    run(["cjpeg", *args, "-outfile", str(OUT / name), str(src["path"])])
    MADE[name] = {"expect": expect, "same_pixels_as": None}
    return name


def jpegtran(base, what, *args, sof):
    """A lossless jpegtran copy of fixture `base`: same pixels, another coding."""
    name = base[:-4] + "-jt-" + what + ".jpg"
    run(["jpegtran", "-copy", "none", *args, "-outfile", str(OUT / name), str(OUT / base)])
    expect = dict(MADE[base]["expect"], sof=sof, scans=None)
    if "-restart" in args:
        n = args[args.index("-restart") + 1]
        expect["dri"] = int(n[:-1]) if n.endswith("B") else "rows"
    MADE[name] = {"expect": expect, "same_pixels_as": (base, djpeg(OUT / base)["sha"])}
    return name


def with_arith_selectors(base):
    """Fixture `base` (arithmetic-coded) with every scan's conditioning table selectors moved
    from 0/1 to 4/9 (DC) and 7/13 (AC): libjpeg accepts selectors up to 15 (NUM_ARITH_TBLS), and
    tables no DAC defines have the same defaults (L=0, U=1, Kx=5), so the pixels stay the same."""
    data = bytearray((OUT / base).read_bytes())
    pos, scans = 2, 0
    while pos + 4 <= len(data):
        assert data[pos] == 0xFF, (base, pos)
        code, length = data[pos + 1], data[pos + 2] << 8 | data[pos + 3]
        if code == 0xD9:
            break
        if code == 0xDA:
            for i in range(data[pos + 4]):
                t = pos + 6 + 2 * i
                data[t] = (4 + 5 * (data[t] >> 4)) << 4 | (7 + 6 * (data[t] & 15))
            scans += 1
            pos += 2 + length
            while not (data[pos] == 0xFF and data[pos + 1] not in (0x00, *range(0xD0, 0xD8))):
                pos += 1
            continue
        pos += 2 + length
    assert scans > 0, base
    name = base[:-4] + "-tables-4-15.jpg"
    (OUT / name).write_bytes(bytes(data))
    MADE[name] = {"expect": dict(MADE[base]["expect"]), "same_pixels_as": (base, djpeg(OUT / base)["sha"])}
    return name


def app1_exif(orientation, big_endian):
    """APP1 'Exif\\0\\0' + a TIFF structure whose IFD0 holds only Orientation (274, SHORT)."""
    e = ">" if big_endian else "<"
    tiff = (b"MM\0*" if big_endian else b"II*\0") + struct.pack(e + "I", 8)
    tiff += struct.pack(e + "H", 1) + struct.pack(e + "HHIHH", 274, 3, 1, orientation, 0) + struct.pack(e + "I", 0)
    body = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def with_exif(base, orientation, big_endian):
    data = (OUT / base).read_bytes()
    assert data[2:4] == b"\xff\xe0", base   # after SOI and cjpeg's JFIF APP0
    app0_end = 4 + (data[4] << 8 | data[5])
    name = "exif-orientation-%d-%s-%dx%d.jpg" % ((orientation, "be" if big_endian else "le") + MADE[base]["expect"]["size"])
    (OUT / name).write_bytes(data[:app0_end] + app1_exif(orientation, big_endian) + data[app0_end:])
    MADE[name] = {"expect": dict(MADE[base]["expect"], orientation=orientation),
                  "same_pixels_as": (base, djpeg(OUT / base)["sha"])}
    return name


def icc_profile(curve_entries):
    """A structurally valid ICC v4 display profile (RGB, PCS XYZ): header, tag table, desc and cprt
    (mluc), wtpt and the sRGB primaries (XYZ, D50), and one TRC shared by the three channels: a
    'curv' with `curve_entries` samples of gamma 2.2 (1 entry = a plain gamma)."""

    def s15(v):
        return struct.pack(">i", round(v * 65536))

    def xyz(x, y, z):
        return b"XYZ \0\0\0\0" + s15(x) + s15(y) + s15(z)

    def mluc(text):
        t = text.encode("utf-16-be")
        return b"mluc\0\0\0\0" + struct.pack(">II", 1, 12) + b"enUS" + struct.pack(">II", len(t), 28) + t

    if curve_entries == 1:
        curve = b"curv\0\0\0\0" + struct.pack(">IH", 1, round(2.2 * 256))
    else:
        n = curve_entries
        curve = b"curv\0\0\0\0" + struct.pack(">I", n) + b"".join(
            struct.pack(">H", round(65535 * (i / (n - 1)) ** 2.2)) for i in range(n))
    tags = [(b"desc", mluc("ImageCodecs test profile, %d-entry TRC" % curve_entries)),
            (b"cprt", mluc("No copyright, use freely")),
            (b"wtpt", xyz(0.9642, 1.0, 0.8249)),
            (b"rXYZ", xyz(0.4361, 0.2225, 0.0139)), (b"gXYZ", xyz(0.3851, 0.7169, 0.0971)),
            (b"bXYZ", xyz(0.1431, 0.0606, 0.7141)), (b"rTRC", curve)]
    offset = 128 + 4 + 12 * (len(tags) + 2)
    table, data = [], b""
    for sig, body in tags:
        table.append(sig + struct.pack(">II", offset + len(data), len(body)))
        if sig == b"rTRC":
            trc = table[-1][4:]
        data += body + b"\0" * (-len(body) % 4)
    table += [b"gTRC" + trc, b"bTRC" + trc]
    body = struct.pack(">I", len(tags) + 2) + b"".join(table) + data
    size = 128 + len(body)
    header = (struct.pack(">I", size) + b"\0\0\0\0" + bytes([4, 0x30, 0, 0]) + b"mntrRGB XYZ "
              + struct.pack(">6H", 2026, 1, 1, 0, 0, 0) + b"acsp" + b"\0" * 24 + struct.pack(">I", 0)
              + s15(0.9642) + s15(1.0) + s15(0.8249) + b"\0" * 4 + b"\0" * 16 + b"\0" * 28)
    assert len(header) == 128
    return header + body


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))


# ---------------------------------------------------------------- the fixtures

A = synthetic(48, 40, 1)
B = synthetic(33, 17, 2)

# Quality: 4:2:0 baseline. Below about q24 the scaled luminance table exceeds 255, so cjpeg
# writes 16-bit DQT entries and an extended-sequential SOF1 (q1, q10); -baseline clamps to 8 bits.
for q in (1, 10, 50, 75, 90, 95, 100):
    cjpeg(A, q, "420")
cjpeg(A, 1, "420", "baseline")
cjpeg(A, 100, "444")

# Sampling, baseline and progressive, on a size that is not a multiple of any MCU.
for s in ("444", "422", "440", "420", "411", "410"):
    cjpeg(B, 75, s)
    cjpeg(B, 75, s, "prog")
cjpeg(B, 75, "s1x1-2x2-2x2")        # chroma sampled above luma
cjpeg(B, 75, "s2x2-2x1-1x2")        # a different factor for each component
cjpeg(B, 75, "s3x2-1x1-1x1")        # factor 3: libjpeg's plain (box) upsampling

# Restart intervals (rows and blocks), grey, Huffman optimisation, arithmetic coding.
cjpeg(A, 75, "420", "rst1row")
cjpeg(A, 75, "420", "rst2b")
cjpeg(A, 75, "444", "rst5b")
cjpeg(A, 75, "420", "prog", "rst2b")
cjpeg(A, 75, "420", "arith", "rst1row")
cjpeg(B, 75, "gray")
cjpeg(B, 75, "gray", "prog")
cjpeg(B, 75, "gray2x2")              # one component with H=V=2 (a non-interleaved scan all the same)
cjpeg(A, 75, "420", "opt")
cjpeg(A, 75, "420", "arith")
cjpeg(A, 75, "420", "arith", "prog")
cjpeg(B, 75, "444", "arith", "prog")

# Scan structure: a sequential file with one scan per component, and a progressive scan script.
cjpeg(B, 75, "420", "noninterleaved")
cjpeg(B, 75, "420", "progcustom")

# Odd sizes down to 1x1: partial MCUs on the right and at the bottom, MCU-sized images.
for w, h in ((1, 1), (1, 9), (9, 1), (7, 5), (17, 13), (33, 9), (65, 3)):
    src = synthetic(w, h, 3)
    cjpeg(src, 75, "420")
    cjpeg(src, 75, "420", "prog")
    extra = {(1, 1): [("444",), ("gray",)], (1, 9): [("444", "prog")], (9, 1): [("411",)],
             (7, 5): [("440",)], (17, 13): [("422",)], (65, 3): [("410",)]}
    for opts in extra.get((w, h), []):
        cjpeg(src, 75, *opts)
cjpeg(synthetic(8, 8, 4), 75, "444")
cjpeg(synthetic(16, 16, 4), 75, "420")
cjpeg(synthetic(64, 64, 4), 90, "420")

# jpegtran: the same coefficients coded another way (lossless, so the same pixels). The bases
# differ so that no copy equals a cjpeg fixture byte for byte (the coefficients would be the same).
jpegtran("q75-420-48x40.jpg", "prog", "-progressive", sof=0xC2)
jpegtran("q75-420-48x40.jpg", "rst4b", "-restart", "4B", sof=0xC0)
jpegtran("q90-420-64x64.jpg", "arith", "-arithmetic", sof=0xC9)
jpegtran("q75-422-33x17.jpg", "prog-arith", "-progressive", "-arithmetic", sof=0xCA)
jpegtran("q75-444-33x17.jpg", "rst1row", "-restart", "1", sof=0xC0)
with_arith_selectors("q90-420-64x64-jt-arith.jpg")
with_arith_selectors("q75-422-33x17-jt-prog-arith.jpg")

# RGB without colour transform (Adobe APP14 transform 0).
cjpeg(B, 75, "rgb")
cjpeg(B, 75, "rgb", "prog")

# EXIF orientation 1..8 on a 24x16 image (odd values little-endian TIFF, even big-endian).
exif_base = cjpeg(synthetic(24, 16, 5), 85, "420")
for o in range(1, 9):
    with_exif(exif_base, o, big_endian=o % 2 == 0)
(OUT / exif_base).unlink()
del MADE[exif_base]

# ICC profiles: 150 KB (3 APP2 chunks of at most 65 519 bytes) and 500 bytes (1 chunk).
icc_files = {}
for entries, chunks in ((74000, 3), (1, 1)):
    f = TMP / ("profile-%d.icc" % entries)
    f.write_bytes(icc_profile(entries))
    name = cjpeg(synthetic(32, 24, 6), 75, "420", icc=f, icc_tag="icc-%dchunk%s" % (chunks, "s" if chunks > 1 else ""))
    MADE[name]["expect"]["icc"] = (chunks, f.read_bytes())

# Crops of Kodak photos (real photographic content); the few larger fixtures.
k23 = kodak("kodim23", (360, 150, 424, 214))
cjpeg(k23, 85, "420", prefix="kodim23-")
cjpeg(k23, 85, "444", "prog", prefix="kodim23-")
cjpeg(k23, 50, "410", prefix="kodim23-")
jpegtran("kodim23-q85-444-prog-64x64.jpg", "seq", sof=0xC0)   # progressive -> sequential
k03 = kodak("kodim03", (256, 160, 512, 352))
cjpeg(k03, 90, "420", prefix="kodim03-")
cjpeg(k03, 90, "420", "prog", prefix="kodim03-")
k05 = kodak("kodim05", (300, 200, 500, 336))
cjpeg(k05, 80, "422", "rst1row", prefix="kodim05-")
cjpeg(k05, 95, "444", "arith", "prog", prefix="kodim05-")


# ---------------------------------------------------------------- checks

def check(name, spec):
    data = (OUT / name).read_bytes()
    info = parse_jpeg(data)
    e = spec["expect"]
    problems = []

    def want(what, got, expected):
        if got != expected:
            problems.append("%s is %r, expected %r" % (what, got, expected))

    want("end", info["end"], "eoi")
    want("SOF", info["sof"], e["sof"])
    want("size", (info["width"], info["height"]), e["size"])
    want("sampling", sampling(info), e["sampling"])
    want("16-bit DQT", any(pq for _, pq in info["dqt"]), e["dqt16"])
    if e["dri"] is None:
        want("DRI", info["dri"], [])
    elif e["dri"] != "rows":
        want("DRI", info["dri"], [e["dri"]])
    else:
        h_max = max(int(f.split("x")[0]) for f in e["sampling"].split(","))
        mcus_per_row = -(-e["size"][0] // (8 * h_max))
        want("DRI (1 MCU row)", info["dri"], [mcus_per_row])
    if e["scans"] is not None:
        want("scan count", len(info["scans"]), e["scans"])
    if e["sof"] in (0xC2, 0xCA):
        if len(info["scans"]) < 2:
            problems.append("progressive file with %d scan(s)" % len(info["scans"]))
    elif e["scans"] is None:
        want("scan count", len(info["scans"]), 1)
    want("Adobe transform", info["adobe_transform"], e["adobe"])
    want("Exif orientation", exif_orientation(info["exif"]), e.get("orientation"))
    if "icc" in e:
        chunks, profile = e["icc"]
        want("ICC chunks", len(info["icc_chunks"]), chunks)
        want("ICC chunk numbering", [(s, c) for s, c, _ in info["icc_chunks"]],
             [(i + 1, chunks) for i in range(chunks)])
        from PIL import Image
        with Image.open(OUT / name) as im:
            want("ICC profile bytes (Pillow)", im.info.get("icc_profile") == profile, True)
    else:
        want("ICC chunks", info["icc_chunks"], [])
    d = djpeg(OUT / name)
    want("djpeg", (d["status"], d["msg"]), ("ok", ""))
    if spec["same_pixels_as"] and d["status"] == "ok":
        base, base_sha = spec["same_pixels_as"]
        want("pixels (vs %s)" % base, d["sha"], base_sha)
    if e["size"][0] * e["size"][1] > 64 * 64 and not name.startswith("kodim"):
        problems.append("more pixels than 64x64 (only the Kodak crops may be larger)")
    return problems


failed = False
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
shutil.rmtree(TMP)
total = sum(f.stat().st_size for f in OUT.glob("*.jpg"))
print("make_jpeg_fixtures.sh: %d files, %d bytes in %s" % (len(MADE), total, OUT), flush=True)
if failed:
    raise SystemExit("make_jpeg_fixtures.sh: some fixtures are not what their names say (above)")
PY

python3 "$here/make_jpeg_manifests.py" fixtures
