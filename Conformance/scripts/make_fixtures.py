#!/usr/bin/env python3
"""Generate the project's own PNG / APNG fixtures from synthetic patterns.

Called by make_fixtures.sh (which also rebuilds the fixture manifests). Encoders:
  * PNG:  ImageMagick `convert` (forced colour type / bit depth / interlace);
  * APNG: apngasm (from generated frame PNGs) and Pillow (save_all with explicit
          disposal / blend / duration / loop).
Pixel patterns come from a fixed-seed PRNG, so the output is deterministic for a
given version of ImageMagick, apngasm, zlib and Pillow.

Usage: make_fixtures.py OUT_DIR   (OUT_DIR = Conformance/fixtures; png/ and apng/ are
       emptied and rewritten)
"""

import os
import random
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True   # no __pycache__ beside the scripts
sys.path.insert(0, str(Path(__file__).resolve().parent))
from manifest_common import CONVERT, fresh_fixture_dirs  # noqa: E402
from make_manifests import Spng  # noqa: E402  (libspng, used here only to verify ImageMagick's output)

APNGASM = os.environ.get("APNGASM", "apngasm")

SIZES = [(1, 1), (7, 3), (33, 17), (64, 64)]

# Ancillary chunks ImageMagick would otherwise add (tRNS is deliberately not listed).
EXCLUDE = "bKGD,cHRM,EXIF,gAMA,iCCP,iTXt,oFFs,pHYs,sRGB,tEXt,tIME,vpAg,zCCP,zTXt,date"


# --------------------------------------------------------------------------
# Patterns: lists of 16-bit RGBA tuples, row-major.

def rng(seed):
    return random.Random(seed)


def gradient(w, h, seed):
    r = rng(seed)
    k = r.randrange(1, 7)
    px = []
    for y in range(h):
        for x in range(w):
            fx = x / max(w - 1, 1)
            fy = y / max(h - 1, 1)
            # smooth 16-bit ramps whose low bytes are not just copies of the high bytes
            px.append((int(fx * 65535), int(fy * 65000) + k * x, int((1 - fx) * fy * 65535), 65535))
    return px


def noise(w, h, seed):
    r = rng(seed)
    return [(r.randrange(65536), r.randrange(65536), r.randrange(65536), 65535) for _ in range(w * h)]


def checker(w, h, seed, cell=4):
    """Checkerboard with alpha: opaque, transparent and half-transparent cells."""
    r = rng(seed)
    cols = [(r.randrange(65536), r.randrange(65536), r.randrange(65536)) for _ in range(3)]
    px = []
    for y in range(h):
        for x in range(w):
            k = (x // cell + y // cell) % 3
            a = (65535, 0, 0x8080 + r.randrange(256))[k]
            c = cols[k]
            px.append((c[0], c[1], c[2], a))
    return px


def alpha_ramp(w, h, seed):
    r = rng(seed)
    px = []
    for y in range(h):
        for x in range(w):
            a = min(65535, int(x / max(w - 1, 1) * 65000) + (y * 37) % 256)
            if (x + y) % 5 == 0:
                a = 0
            px.append((r.randrange(65536), r.randrange(65536), r.randrange(65536), a))
    return px


def pattern_for(w, h, seed):
    if w * h <= 21:
        return noise(w, h, seed)
    if (w, h) == (64, 64):
        return gradient(w, h, seed)
    return noise(w, h, seed)


# --------------------------------------------------------------------------
# Conversions of a 16-bit RGBA pattern to what each PNG type can hold.

def to_depth(v16, depth):
    """Quantise a 16-bit sample to `depth` bits and back to 16 (exactly representable)."""
    if depth == 16:
        return v16
    m = (1 << depth) - 1
    q = (v16 * m + 32767) // 65535
    return q * 65535 // m


def grey_of(p):
    return (p[0] * 299 + p[1] * 587 + p[2] * 114) // 1000


def variant_pixels(kind, depth, trns, w, h, seed):
    base = pattern_for(w, h, seed)
    if kind in ("gray", "graya"):
        out = []
        for p in base:
            g = to_depth(grey_of(p), depth)
            out.append((g, g, g, 65535))
        if kind == "graya":
            ar = alpha_ramp(w, h, seed + 1)
            out = [(p[0], p[1], p[2], to_depth(ar[i][3], depth)) for i, p in enumerate(out)]
        if trns:
            # one grey level becomes fully transparent (tRNS); must not occur opaque elsewhere
            key = out[len(out) // 2][0]
            out = [(p[0], p[1], p[2], 0 if p[0] == key else 65535) for p in out]
        return out
    if kind in ("rgb", "rgba"):
        out = [tuple(to_depth(c, depth) for c in p[:3]) + (65535,) for p in base]
        if kind == "rgba":
            ar = checker(w, h, seed + 2) if (w, h) == (64, 64) else alpha_ramp(w, h, seed + 2)
            out = [p[:3] + (to_depth(ar[i][3], depth),) for i, p in enumerate(out)]
        if trns:
            key = out[len(out) // 2][:3]
            out = [p[:3] + ((0,) if p[:3] == key else (65535,)) for p in out]
        return out
    if kind == "pal":
        n = 1 << depth
        r = rng(seed + 3)
        palette = [(to_depth(r.randrange(65536), 8), to_depth(r.randrange(65536), 8),
                    to_depth(r.randrange(65536), 8)) for _ in range(n)]
        alphas = [65535] * n
        if trns:
            alphas[0] = 0
            if n > 2:
                alphas[1] = 0x8080  # 128 in 8 bits
            if n > 4:
                alphas[3] = 0x4040
        # make palette entries distinct (colour + alpha), as ImageMagick merges duplicates
        seen = set()
        for i in range(n):
            while (palette[i], alphas[i]) in seen:
                palette[i] = (to_depth(r.randrange(65536), 8), palette[i][1], palette[i][2])
            seen.add((palette[i], alphas[i]))
        idx = []
        for i, p in enumerate(base):
            idx.append((p[0] >> 8 ^ p[1] >> 9 ^ i) % n)
        # use every entry at least once when there is room (so the palette is not shrunk)
        for k in range(min(n, len(idx))):
            idx[k] = k
        return [palette[k] + (alphas[k],) for k in idx]
    raise ValueError(kind)


# --------------------------------------------------------------------------
# PNG inspection

def png_chunks(path):
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, out = 8, []
    while pos < len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        t = data[pos + 4:pos + 8].decode("latin-1")
        out.append((t, data[pos + 8:pos + 8 + n]))
        pos += 12 + n
    return out


def ihdr_of(path):
    t, d = png_chunks(path)[0]
    assert t == "IHDR"
    w, h, depth, ctype, _, _, il = struct.unpack(">IIBBBBB", d)
    return w, h, depth, ctype, il


# --------------------------------------------------------------------------
# PNG fixtures via ImageMagick

PNG_VARIANTS = [
    # name, kind, depth, trns, png colour type
    ("gray1", "gray", 1, False, 0),
    ("gray2", "gray", 2, False, 0),
    ("gray4", "gray", 4, False, 0),
    ("gray8", "gray", 8, False, 0),
    ("gray16", "gray", 16, False, 0),
    ("rgb8", "rgb", 8, False, 2),
    ("rgb16", "rgb", 16, False, 2),
    ("pal1", "pal", 1, False, 3),
    ("pal2", "pal", 2, False, 3),
    ("pal4", "pal", 4, False, 3),
    ("pal8", "pal", 8, False, 3),
    ("pal1-trns", "pal", 1, True, 3),
    ("pal2-trns", "pal", 2, True, 3),
    ("pal4-trns", "pal", 4, True, 3),
    ("pal8-trns", "pal", 8, True, 3),
    ("graya8", "graya", 8, False, 4),
    ("graya16", "graya", 16, False, 4),
    ("rgba8", "rgba", 8, False, 6),
    ("rgba16", "rgba", 16, False, 6),
    ("gray8-trns", "gray", 8, True, 0),
    ("gray16-trns", "gray", 16, True, 0),
    ("rgb8-trns", "rgb", 8, True, 2),
    ("rgb16-trns", "rgb", 16, True, 2),
]


def write_raw_rgba16(path, px):
    with open(path, "wb") as f:
        f.write(b"".join(struct.pack(">HHHH", *p) for p in px))


def canonical_of(px):
    out = bytearray()
    for r, g, b, a in px:
        out += bytes((r >> 8, g >> 8, b >> 8, a >> 8)) if a >> 8 else b"\0\0\0\0"
    return bytes(out)


def im_attempts(ctype, depth, trns):
    """ImageMagick ways to get (colour type, depth, tRNS), tried in order.
    IM 6.9.11 loses tRNS when png:color-type=3 is forced, and PNG8 keeps only binary
    transparency, so palette images with partly transparent entries use IM's automatic
    choice (smallest palette depth for the number of colours)."""
    forced = ["-define", "png:color-type=%d" % ctype, "-define", "png:bit-depth=%d" % depth]
    if ctype == 3:
        return [("PNG8:", ["-define", "png:bit-depth=%d" % depth]), ("PNG:", []), ("PNG:", forced)]
    return [("PNG:", forced)]


def make_png(tmp, spng, out, kind, depth, trns, ctype, w, h, interlace, seed):
    px = variant_pixels(kind, depth, trns, w, h, seed)
    raw = os.path.join(tmp, "src.rgba")
    write_raw_rgba16(raw, px)
    has_alpha = kind in ("graya", "rgba") or trns
    want = canonical_of(px)
    tried = []
    for prefix, opts in im_attempts(ctype, depth, trns):
        cmd = [CONVERT, "-size", "%dx%d" % (w, h), "-depth", "16", "-endian", "MSB", "rgba:" + raw]
        if not has_alpha:
            cmd += ["-alpha", "off"]
        cmd += opts + ["-define", "png:exclude-chunk=" + EXCLUDE,
                       "-interlace", "PNG" if interlace else "none", "-quality", "95", prefix + str(out)]
        subprocess.run(cmd, check=True, capture_output=True)
        # verify that ImageMagick wrote what was asked for
        W, H, d, c, il = ihdr_of(out)
        names = [t for t, _ in png_chunks(out)]
        problems = []
        if (W, H, d, c, il) != (w, h, depth, ctype, 1 if interlace else 0):
            problems.append("IHDR %s" % ((W, H, d, c, il),))
        if trns != ("tRNS" in names):
            problems.append("tRNS %s" % ("missing" if trns else "unexpected"))
        extra = [t for t in names if t not in ("IHDR", "PLTE", "tRNS", "IDAT", "IEND")]
        if extra:
            problems.append("extra chunks %s" % extra)
        if not problems:
            r = spng.decode(out)
            if r["status"] != "ok" or r["pixels"] != want:
                problems.append("pixels differ from the pattern (%s)" % r["status"])
        if not problems:
            return " ".join([prefix] + opts)
        tried.append("%s %s: %s" % (prefix, " ".join(opts), "; ".join(problems)))
    raise SystemExit("ImageMagick did not produce %s as asked:\n  %s" % (out.name, "\n  ".join(tried)))


def make_pngs(png_dir, tmp, spng):
    made, how = [], {}
    seed = 1000
    for name, kind, depth, trns, ctype in PNG_VARIANTS:
        for (w, h) in SIZES:
            for interlace in (False, True):
                seed += 1
                if trns and (w, h) == (1, 1):
                    continue  # ImageMagick drops the transparency of a single fully transparent pixel
                fn = png_dir / ("%s-%dx%d%s.png" % (name, w, h, "-i" if interlace else ""))
                how[fn.name] = make_png(tmp, spng, fn, kind, depth, trns, ctype, w, h, interlace, seed)
                made.append(fn)
    return made, how


# --------------------------------------------------------------------------
# APNG fixtures

def frame_images(n, w, h, seed, alpha="binary", bg=(0, 0, 0, 0)):
    """n RGBA8 frames: a moving square and a moving bar over a background."""
    from PIL import Image
    r = rng(seed)
    frames = []
    for i in range(n):
        im = Image.new("RGBA", (w, h), bg)
        px = im.load()
        sx = (i * 5) % max(w - 8, 1)
        sy = (i * 3) % max(h - 8, 1)
        col = (r.randrange(256), r.randrange(256), r.randrange(256))
        for y in range(h):
            for x in range(w):
                if sx <= x < sx + 8 and sy <= y < sy + 8:
                    a = 255 if alpha != "partial" else (255 if (x + y) % 2 else 96 + i * 16 % 128)
                    px[x, y] = col + (a,)
                elif (x + i) % 11 == 0:
                    px[x, y] = (255 - col[0], col[1] // 2, 200, 255)
                elif alpha == "noise" and r.random() < 0.2:
                    px[x, y] = (r.randrange(256), r.randrange(256), r.randrange(256), 255)
        frames.append(im)
    return frames


def apngasm_fixture(apng_dir, tmp, name, frames, delays, loops=0, extra=()):
    """delays: list of (num, den) per frame, written as frameNNN.txt next to each frame."""
    work = Path(tmp) / name
    work.mkdir()
    files = []
    for i, im in enumerate(frames):
        fn = work / ("frame%03d.png" % i)
        im.save(fn)
        (work / ("frame%03d.txt" % i)).write_text("delay=%d/%d\n" % delays[i])
        files.append(fn.name)
    out = apng_dir / (name + ".png")
    cmd = [APNGASM, str(out)] + files + ["-l%d" % loops, "-z0"] + list(extra)
    subprocess.run(cmd, check=True, capture_output=True, cwd=work)
    return out


def pillow_fixture(apng_dir, name, frames, **kw):
    out = apng_dir / (name + ".png")
    frames[0].save(out, format="PNG", save_all=True, append_images=frames[1:], **kw)
    return out


def make_apngs(apng_dir, tmp):
    from PIL import Image
    made = []
    # --- apngasm (its own sub-rectangle / dispose / blend optimisation)
    made.append(apngasm_fixture(apng_dir, tmp, "asm-square-32x32",
                                frame_images(6, 32, 32, 1), [(1, 10)] * 6))
    made.append(apngasm_fixture(apng_dir, tmp, "asm-opaque-bg-48x24",
                                frame_images(5, 48, 24, 2, bg=(20, 40, 60, 255)),
                                [(1, 10), (2, 10), (33, 1000), (1, 1), (0, 100)], loops=3))
    made.append(apngasm_fixture(apng_dir, tmp, "asm-noise-40x30",
                                frame_images(4, 40, 30, 3, alpha="noise"), [(50, 1000)] * 4, loops=1))
    made.append(apngasm_fixture(apng_dir, tmp, "asm-partial-alpha-24x24",
                                frame_images(4, 24, 24, 4, alpha="partial"), [(1, 25)] * 4))
    made.append(apngasm_fixture(apng_dir, tmp, "asm-skip-first-32x16",
                                frame_images(4, 32, 16, 5), [(1, 10)] * 4, extra=["-f"]))
    made.append(apngasm_fixture(apng_dir, tmp, "asm-large-200x150",
                                frame_images(3, 200, 150, 6, bg=(250, 250, 240, 255)), [(1, 5)] * 3, loops=2))

    # --- Pillow: every disposal x blend combination (binary alpha: see README)
    for disposal in (0, 1, 2):
        for blend in (0, 1):
            fr = frame_images(4, 32, 24, 10 + disposal * 2 + blend)
            made.append(pillow_fixture(apng_dir, "pil-d%d-b%d-32x24" % (disposal, blend), fr,
                                       duration=[100, 40, 250, 1000], loop=0,
                                       disposal=disposal, blend=blend))
    # mixed per-frame disposal / blend, loop count and durations
    fr = frame_images(6, 40, 40, 20)
    made.append(pillow_fixture(apng_dir, "pil-mixed-40x40", fr, duration=[0, 20, 30, 40, 50, 60], loop=5,
                               disposal=[0, 1, 2, 0, 2, 1], blend=[0, 1, 1, 0, 1, 0]))
    # partly transparent pixels with blend SOURCE only
    fr = frame_images(4, 24, 24, 21, alpha="partial")
    made.append(pillow_fixture(apng_dir, "pil-partial-source-24x24", fr, duration=33, loop=1,
                               disposal=1, blend=0))
    # opaque RGB animation, non-integer-ms duration (1/30 s) and one loop
    fr = [im.convert("RGB") for im in frame_images(3, 30, 20, 22, bg=(10, 200, 30, 255))]
    made.append(pillow_fixture(apng_dir, "pil-rgb-30x20", fr, duration=1000 / 30, loop=1))
    # default image that is not part of the animation
    fr = frame_images(3, 16, 16, 23)
    made.append(pillow_fixture(apng_dir, "pil-default-image-16x16", fr, duration=200, loop=0,
                               default_image=True))
    # identical consecutive frames (Pillow merges them and adds the durations)
    fr = frame_images(3, 16, 16, 24)
    fr = [fr[0], fr[0].copy(), fr[1], fr[2]]
    made.append(pillow_fixture(apng_dir, "pil-merged-frames-16x16", fr, duration=[100, 150, 200, 250], loop=0))
    # 1x1 two-frame animation
    fr = [Image.new("RGBA", (1, 1), (255, 0, 0, 255)), Image.new("RGBA", (1, 1), (0, 0, 255, 255))]
    made.append(pillow_fixture(apng_dir, "pil-1x1", fr, duration=[500, 500], loop=0))
    # grey-scale animation (mode L)
    fr = [im.convert("L") for im in frame_images(3, 20, 12, 25, bg=(128, 128, 128, 255))]
    made.append(pillow_fixture(apng_dir, "pil-gray-20x12", fr, duration=80, loop=0))
    # palette animation (mode P, opaque)
    rgb = [im.convert("RGB") for im in frame_images(3, 24, 16, 26, bg=(0, 0, 80, 255))]
    pal = rgb[0].quantize(colors=8, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    fr = [pal] + [im.quantize(palette=pal, dither=Image.Dither.NONE) for im in rgb[1:]]
    made.append(pillow_fixture(apng_dir, "pil-palette-24x16", fr, duration=120, loop=0))
    return made


def main(argv):
    dirs = fresh_fixture_dirs(argv, __doc__, "png", "apng")
    if dirs is None:
        return 2
    png_dir, apng_dir = dirs
    spng = Spng()
    try:
        with tempfile.TemporaryDirectory(prefix="imagecodecs-fixtures.") as tmp:
            pngs, how = make_pngs(png_dir, tmp, spng)
            apngs = make_apngs(apng_dir, tmp)
    finally:
        spng.close()
    for variant in sorted(set(v for v in how.values())):
        print("  ImageMagick %-45s %d files" % (variant, sum(1 for v in how.values() if v == variant)))
    total = sum(p.stat().st_size for p in pngs + apngs)
    print("fixtures: %d PNG, %d APNG, %d bytes" % (len(pngs), len(apngs), total))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
