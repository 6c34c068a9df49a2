#!/usr/bin/env python3
"""Generate the project's own GIF fixtures from synthetic patterns.

Called by make_gif_fixtures.sh (which also rebuilds the fixture manifests). Encoders:
  * im-*  ImageMagick `convert` (stills 87a/89a, palette sizes, interlace, transparency,
          global/local palettes, disposal, delays, `-layers Optimize`);
  * gs-*  gifsicle (-O2/-O3 sub-rectangle optimisation, interlaced animation, disposal,
          loop counts), from full-frame GIFs written by this script;
  * py-*  a byte writer in this script, for the edge cases no encoder produces (LZW minimum
          code size 1, a deferred clear, no end code, no trailer, extra or missing pixels,
          no colour table, out-of-range indices, rectangles past the screen, disposal 4-7,
          several graphic control extensions, small interlaced frames).
Pixel patterns come from random.Random(seed) with fixed seeds, so the output is deterministic
for a given ImageMagick and gifsicle.

Every file is checked before the script ends: its block structure must have what was asked
for (version, palette sizes, interlace flags, disposal, delays, loop extension, sub-rectangles),
and the frames giflib's compositor (gif_composite.c) makes must equal the frames this script
expects from the synthetic pattern (an independent Python compositor with the same rules), or
giflib must refuse the file where that is the point of the fixture. Any failure stops the script.

Usage: make_gif_fixtures.py OUT_DIR   (OUT_DIR = Conformance/fixtures; gif/ is emptied and rewritten)
"""

import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True   # no __pycache__ beside the scripts
sys.path.insert(0, str(Path(__file__).resolve().parent))
from manifest_common import CONVERT, fresh_fixture_dirs  # noqa: E402
from make_gif_manifests import Giflib, parse_gif  # noqa: E402

GIFSICLE = os.environ.get("GIFSICLE", "gifsicle")


# --------------------------------------------------------------------------
# Patterns

def palette(n, seed):
    """n distinct opaque colours."""
    r = random.Random(seed)
    seen, out = set(), []
    while len(out) < n:
        c = (r.randrange(256), r.randrange(256), r.randrange(256))
        if c not in seen:
            seen.add(c)
            out.append(c)
    return out


def indices(w, h, n, seed, kind="mix"):
    """w*h palette indices in [0, n) that use every index (when w*h >= n)."""
    r = random.Random(seed)
    px = []
    for y in range(h):
        for x in range(w):
            if kind == "noise":
                px.append(r.randrange(n))
            else:
                # blocks + diagonal bands + a little noise: compresses, but not trivially
                v = (x // 3 + y // 2 * 3 + (x + y) // 5) % n
                if r.random() < 0.1:
                    v = r.randrange(n)
                px.append(v)
    for i in range(min(n, len(px))):
        px[(i * 7919) % len(px)] = i
    return px


def to_rgba(idx, pal, transparent=None):
    return [(0, 0, 0, 0) if i == transparent else pal[i] + (255,) for i in idx]


# --------------------------------------------------------------------------
# Writers: PPM/PAM (ImageMagick input) and GIF (byte writer)

def write_pnm(path, w, h, rgba):
    """PAM with alpha when any pixel is transparent, else PPM."""
    if all(p[3] == 255 for p in rgba):
        data = b"P6\n%d %d\n255\n" % (w, h) + bytes(c for p in rgba for c in p[:3])
    else:
        data = (b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % (w, h)
                + bytes(c for p in rgba for c in p))
    Path(path).write_bytes(data)


def table_bits(n):
    bits = 1
    while (1 << bits) < n:
        bits += 1
    return bits


def color_table(pal, bits=None):
    bits = bits or table_bits(len(pal))
    pal = list(pal) + [(0, 0, 0)] * ((1 << bits) - len(pal))
    return bits, b"".join(bytes(c) for c in pal)


def lzw_encode(idx, mcs, *, clear_first=True, eoi=True, full="clear", defer=0):
    """GIF LZW. full: 'clear' (clear code as soon as the table is full), 'defer' (keep
    emitting 12-bit codes without adding entries for `defer` codes, then clear), or
    'never' (never clear again). Returns the packed bytes (not yet split into sub-blocks)."""
    clear, end = 1 << mcs, (1 << mcs) + 1
    out, acc, nacc = bytearray(), 0, 0
    size = mcs + 1

    def emit(code):
        nonlocal acc, nacc
        acc |= code << nacc
        nacc += size
        while nacc >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            nacc -= 8

    def reset():
        nonlocal size
        size = mcs + 1
        return {}, end + 1

    table, nxt = reset()
    if clear_first:
        emit(clear)
    w, deferred = None, 0
    for k in idx:
        if w is None:
            w = k
            continue
        key = (w, k)
        if key in table:
            w = table[key]
            continue
        emit(w)
        if nxt < 4096:
            if nxt >= (1 << size) and size < 12:
                size += 1
            table[key] = nxt
            nxt += 1
        else:
            if full == "clear" or (full == "defer" and deferred >= defer):
                emit(clear)
                table, nxt = reset()
                deferred = 0
            else:
                deferred += 1
        w = k
    if w is not None:
        emit(w)
        if nxt < 4096 and nxt >= (1 << size) and size < 12:
            size += 1
    if eoi:
        emit(end)
    if nacc:
        out.append(acc & 0xFF)
    return bytes(out)


def sub_blocks(data):
    out = bytearray()
    for i in range(0, len(data), 255):
        chunk = data[i:i + 255]
        out.append(len(chunk))
        out += chunk
    out.append(0)
    return bytes(out)


class GifWriter:
    def __init__(self, w, h, gct=None, gct_bits=None, bg=0, version=b"GIF89a"):
        self.b = bytearray(version)
        flags = 0
        table = b""
        if gct is not None:
            bits, table = color_table(gct, gct_bits)
            flags = 0x80 | 0x70 | (bits - 1)
        self.b += bytes((w & 255, w >> 8, h & 255, h >> 8, flags, bg, 0)) + table

    def gce(self, disposal=0, delay=0, transparent=None):
        flags = (disposal & 7) << 2 | (1 if transparent is not None else 0)
        self.b += bytes((0x21, 0xF9, 4, flags, delay & 255, delay >> 8,
                         transparent if transparent is not None else 0, 0))

    def netscape(self, loop):
        self.b += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + bytes((loop & 255, loop >> 8)) + b"\x00"

    def image(self, x, y, w, h, idx, lct=None, lct_bits=None, interlace=False, mcs=None, data=None, **lzw):
        flags = 0x40 if interlace else 0
        table = b""
        if lct is not None:
            bits, table = color_table(lct, lct_bits)
            flags |= 0x80 | (bits - 1)
        self.b += bytes((0x2C, x & 255, x >> 8, y & 255, y >> 8, w & 255, w >> 8, h & 255, h >> 8, flags))
        self.b += table
        if mcs is None:
            mcs = max(2, table_bits(max(idx) + 1 if idx else 2))
        if interlace:
            rows = [idx[r * w:(r + 1) * w] for r in range(h)]
            order = list(range(0, h, 8)) + list(range(4, h, 8)) + list(range(2, h, 4)) + list(range(1, h, 2))
            idx = [p for r in order for p in rows[r]]
        self.b.append(mcs)
        self.b += sub_blocks(data if data is not None else lzw_encode(idx, mcs, **lzw))

    def trailer(self):
        self.b += b";"

    def save(self, path):
        Path(path).write_bytes(bytes(self.b))


# --------------------------------------------------------------------------
# Expected frames: an independent compositor with the browser rules of gif_composite.c

def composite(W, H, frames):
    """frames: dicts with x, y, w, h, px (list of (r,g,b,a), a in {0,255}; a == 0 = leave the
    canvas) and disposal (raw GCE value). -> list of canonical RGBA bytes per frame."""
    canvas = bytearray(W * H * 4)
    saved = bytearray(W * H * 4)
    out, prev = [], None
    for k, f in enumerate(frames):
        if prev is not None:
            (x0, y0, x1, y1), d = prev
            for yy in range(y0, y1):
                a, b = (yy * W + x0) * 4, (yy * W + x1) * 4
                if d == 2:
                    canvas[a:b] = bytes(b - a)
                elif d == 3:
                    canvas[a:b] = saved[a:b]
        x0, y0 = min(f["x"], W), min(f["y"], H)
        x1, y1 = min(f["x"] + f["w"], W), min(f["y"] + f["h"], H)
        for yy in range(y0, y1):
            a, b = (yy * W + x0) * 4, (yy * W + x1) * 4
            saved[a:b] = canvas[a:b]
            for xx in range(x0, x1):
                p = f["px"][(yy - f["y"]) * f["w"] + (xx - f["x"])]
                if p[3]:
                    canvas[(yy * W + xx) * 4:(yy * W + xx) * 4 + 4] = bytes(p)
        d = f.get("disposal", 0)
        d = 3 if d == 4 else (0 if d > 4 else d)
        if d == 3 and k == 0:
            d = 2
        prev = ((x0, y0, x1, y1), d)
        out.append(bytes(canvas))
    return out


def indexed_px(idx, table, transparent=None):
    """Browser rule: transparent index leaves the canvas; entries the table does not define
    (index >= len(table), or no table) are opaque black."""
    table = table or []
    return [(0, 0, 0, 0) if i == transparent else
            (table[i] + (255,) if i < len(table) else (0, 0, 0, 255)) for i in idx]


def full(w, h, rgba, disposal=0):
    return {"x": 0, "y": 0, "w": w, "h": h, "px": rgba, "disposal": disposal}


# --------------------------------------------------------------------------
# Fixture definitions

class Fixtures:
    def __init__(self, out, tmp, giflib):
        self.out, self.tmp, self.giflib = out, tmp, giflib
        self.n = 0
        self.checks = {}

    def tmpfile(self, name):
        return str(Path(self.tmp) / name)

    def add(self, name, expect, **want):
        """Check the written file `name`: giflib frames == expect (list of RGBA bytes, or
        'error'), and its structure has the properties in `want`."""
        path = self.out / name
        r = self.giflib.raw(path)
        if expect == "error":
            if r is not None:
                raise SystemExit("%s: giflib decodes it, expected a refusal" % name)
        else:
            if r is None:
                raise SystemExit("%s: giflib refuses it" % name)
            w, h, frames = r
            if len(frames) != len(expect):
                raise SystemExit("%s: giflib gives %d frames, expected %d" % (name, len(frames), len(expect)))
            for i, (a, b) in enumerate(zip(frames, expect)):
                if a != b:
                    bad = next(j for j in range(0, len(a), 4) if a[j:j + 4] != b[j:j + 4]) // 4
                    raise SystemExit("%s: frame %d differs at pixel (%d,%d): giflib %s, expected %s"
                                     % (name, i, bad % w, bad // w, tuple(a[bad * 4:bad * 4 + 4]),
                                        tuple(b[bad * 4:bad * 4 + 4])))
        self.check_structure(name, path.read_bytes(), want)
        self.n += 1

    @staticmethod
    def check_structure(name, data, want):
        info = parse_gif(data)
        ims = info["images"]

        def fail(what):
            raise SystemExit("%s: structure check failed: %s (parsed: %r)" % (name, what, {
                k: v for k, v in info.items() if k != "images"}))
        for k, v in want.items():
            if k == "version" and info["version"] != v:
                fail("version %s != %s" % (info["version"], v))
            elif k == "gct" and info["gct"] != v:
                fail("global table size %d != %d" % (info["gct"], v))
            elif k == "frames" and len(ims) != v:
                fail("%d images != %d" % (len(ims), v))
            elif k == "interlace" and [im["interlace"] for im in ims] != v:
                fail("interlace flags %r != %r" % ([im["interlace"] for im in ims], v))
            elif k == "lct" and [im["lct"] for im in ims] != v:
                fail("local tables %r != %r" % ([im["lct"] for im in ims], v))
            elif k == "local_tables" and (any(im["lct"] for im in ims) != v):
                fail("local tables present %r != %r" % (any(im["lct"] for im in ims), v))
            elif k == "transparency" and any(bool(im["gces"] and im["gces"][-1][0] & 1) for im in ims) != v:
                fail("transparency != %r" % v)
            elif k == "disposal" and [((im["gces"][-1][0] >> 2) & 7) if im["gces"] else 0 for im in ims] != v:
                fail("disposal %r != %r" % ([((im["gces"][-1][0] >> 2) & 7) if im["gces"] else 0 for im in ims], v))
            elif k == "delays" and [im["gces"][-1][1] if im["gces"] else None for im in ims] != v:
                fail("delays %r != %r" % ([im["gces"][-1][1] if im["gces"] else None for im in ims], v))
            elif k == "loop" and ([lp[2] for lp in info["loops"]] or [None])[-1] != v:
                fail("loop %r != %r" % ([lp[2] for lp in info["loops"]], v))
            elif k == "subrect" and (any((im["x"], im["y"], im["w"], im["h"]) != (0, 0, info["width"], info["height"])
                                         for im in ims) != v):
                fail("sub-rectangle frames present != %r" % v)
            elif k == "trailer" and (info["end"] == "trailer") != v:
                fail("trailer %r" % info["end"])
            elif k == "mcs" and [im["mcs"] for im in ims] != v:
                fail("LZW minimum code sizes %r != %r" % ([im["mcs"] for im in ims], v))

    def run(self, *cmd):
        subprocess.run([str(c) for c in cmd], check=True, cwd=self.tmp)


def make_im(F):
    out = F.out
    # Stills: 87a and 89a, palettes of 2, 4, 16 and 256 colours, interlaced, transparency.
    w, h = 33, 17
    pal = palette(16, 1001)
    rgba = to_rgba(indices(w, h, 16, 1002), pal)
    src = F.tmpfile("still.ppm")
    write_pnm(src, w, h, rgba)
    for ver in ("87a", "89a"):
        name = "im-still%s-pal16-%dx%d.gif" % (ver, w, h)
        F.run(CONVERT, src, "+dither", ("GIF87:" if ver == "87a" else "GIF:") + str(out / name))
        F.add(name, [bytes(c for p in rgba for c in p)], version="GIF" + ver, gct=16, frames=1,
              interlace=[False], local_tables=False)
    for n, (w2, h2) in ((2, (24, 16)), (4, (24, 16)), (16, (24, 16)), (256, (32, 24))):
        pal = palette(n, 1100 + n)
        rgba = to_rgba(indices(w2, h2, n, 1200 + n), pal)
        src = F.tmpfile("pal%d.ppm" % n)
        write_pnm(src, w2, h2, rgba)
        name = "im-pal%d-%dx%d.gif" % (n, w2, h2)
        F.run(CONVERT, src, "+dither", str(out / name))
        F.add(name, [bytes(c for p in rgba for c in p)], gct=n, frames=1, interlace=[False])
    # interlaced, 256 colours
    w2, h2 = 40, 30
    pal = palette(256, 1301)
    rgba = to_rgba(indices(w2, h2, 256, 1302), pal)
    src = F.tmpfile("inter.ppm")
    write_pnm(src, w2, h2, rgba)
    name = "im-interlaced-pal256-%dx%d.gif" % (w2, h2)
    F.run(CONVERT, src, "+dither", "-interlace", "GIF", str(out / name))
    F.add(name, [bytes(c for p in rgba for c in p)], gct=256, interlace=[True])
    # transparency (binary alpha): transparent pixels become the GCE transparent index
    pal = palette(15, 1401)
    idx = indices(w, h, 16, 1402)
    rgba = to_rgba(idx, pal + [(0, 0, 0)], transparent=15)
    src = F.tmpfile("trns.pam")
    write_pnm(src, w, h, rgba)
    name = "im-trns-pal16-%dx%d.gif" % (w, h)
    F.run(CONVERT, src, "+dither", str(out / name))
    F.add(name, [bytes(c for p in rgba for c in p)], gct=16, transparency=True)

    # Animations, full frames: global palette only (-remap) and local palettes.
    w, h = 20, 12
    pal = palette(16, 1501)
    frames = [to_rgba(indices(w, h, 16, 1510 + i), pal) for i in range(3)]
    srcs = []
    for i, fr in enumerate(frames):
        srcs.append(F.tmpfile("g%d.ppm" % i))
        write_pnm(srcs[-1], w, h, fr)
    palimg = F.tmpfile("pal16.ppm")
    write_pnm(palimg, 16, 1, [c + (255,) for c in pal])
    name = "im-anim-global-%dx%d.gif" % (w, h)
    F.run(CONVERT, "-delay", "20", "-loop", "0", *srcs, "+dither", "-remap", palimg, str(out / name))
    F.add(name, [bytes(c for p in fr for c in p) for fr in frames], gct=16, frames=3,
          local_tables=False, delays=[20, 20, 20], loop=0)
    frames = [to_rgba(indices(w, h, 8, 1520 + i), palette(8, 1530 + i)) for i in range(3)]
    srcs = []
    for i, fr in enumerate(frames):
        srcs.append(F.tmpfile("l%d.ppm" % i))
        write_pnm(srcs[-1], w, h, fr)
    name = "im-anim-local-%dx%d.gif" % (w, h)
    F.run(CONVERT, "-delay", "20", "-loop", "0", *srcs, "+dither", str(out / name))
    F.add(name, [bytes(c for p in fr for c in p) for fr in frames], frames=3, local_tables=True, loop=0)

    # Disposal: an opaque background frame, then sprites with transparent holes at offsets.
    W, H = 32, 24
    pal = palette(12, 1601)
    bg = to_rgba(indices(W, H, 8, 1602), pal)
    bgsrc = F.tmpfile("bg.ppm")
    write_pnm(bgsrc, W, H, bg)
    sprites = []
    for i, (x, y) in enumerate(((3, 2), (14, 9), (22, 15))):
        sw, sh = 9, 7
        sidx = [8 + (a + b + i) % 4 if (a - 4) ** 2 + (b - 3) ** 2 <= 12 else 12 for b in range(sh) for a in range(sw)]
        srgba = to_rgba(sidx, pal + [(0, 0, 0)], transparent=12)
        ssrc = F.tmpfile("s%d.pam" % i)
        write_pnm(ssrc, sw, sh, srgba)
        sprites.append((x, y, sw, sh, srgba, ssrc))
    for disp, code in (("none", 1), ("background", 2), ("previous", 3)):
        name = "im-dispose-%s-%dx%d.gif" % (disp, W, H)
        cmd = [CONVERT, "-loop", "0", "-delay", "20", "-dispose", "None", bgsrc,
               "-dispose", disp.capitalize()]
        for (x, y, sw, sh, srgba, ssrc) in sprites:
            cmd += ["-page", "%dx%d+%d+%d" % (W, H, x, y), ssrc]
        cmd += ["+dither", str(out / name)]
        F.run(*cmd)
        exp = composite(W, H, [full(W, H, bg, 1)] + [
            {"x": x, "y": y, "w": sw, "h": sh, "px": srgba, "disposal": code}
            for (x, y, sw, sh, srgba, ssrc) in sprites])
        F.add(name, exp, frames=4, disposal=[1, code, code, code], subrect=True, transparency=True)

    # Delays 0, 1 (10 ms) and 20; no loop extension (ImageMagick's -loop 1 = play once).
    w, h = 16, 10
    pal = palette(4, 1701)
    frames = [to_rgba(indices(w, h, 4, 1710 + i), pal) for i in range(3)]
    cmd = [CONVERT, "-loop", "1"]
    for i, (fr, d) in enumerate(zip(frames, (0, 1, 20))):
        s = F.tmpfile("d%d.ppm" % i)
        write_pnm(s, w, h, fr)
        cmd += ["-delay", str(d), s]
    name = "im-delays-0-1-20-noloop-%dx%d.gif" % (w, h)
    F.run(*cmd, "+dither", "-remap", F.tmpfile("d0.ppm"), str(out / name))
    F.add(name, [bytes(c for p in fr for c in p) for fr in frames], frames=3, delays=[0, 1, 20], loop=None)

    # -layers Optimize on a full-frame animation: sub-rectangles and transparency.
    W, H = 40, 30
    pal = palette(16, 1801)
    base = indices(W, H, 12, 1802)
    frames = []
    for i in range(5):
        idx = list(base)
        for yy in range(6 + i * 3, 14 + i * 3):
            for xx in range(4 + i * 6, 12 + i * 6):
                idx[yy * W + xx] = 12 + (xx + yy) % 4
        frames.append(to_rgba(idx, pal))
    srcs = []
    for i, fr in enumerate(frames):
        srcs.append(F.tmpfile("o%d.ppm" % i))
        write_pnm(srcs[-1], W, H, fr)
    name = "im-layers-optimize-%dx%d.gif" % (W, H)
    F.run(CONVERT, "-delay", "10", "-loop", "0", *srcs, "+dither", "-layers", "Optimize", str(out / name))
    F.add(name, [bytes(c for p in fr for c in p) for fr in frames], frames=5, subrect=True, loop=0)


def still_gifs(F, prefix, w, h, pal, frames):
    """Each list of indices in `frames` as a full-frame GIF with the global table `pal`, written
    to the temporary folder as PREFIX0.gif, PREFIX1.gif, ... (gifsicle's input).
    -> (paths, the expected canonical frames)."""
    srcs = []
    for i, idx in enumerate(frames):
        g = GifWriter(w, h, gct=pal)
        g.image(0, 0, w, h, idx)
        g.trailer()
        srcs.append(F.tmpfile("%s%d.gif" % (prefix, i)))
        g.save(srcs[-1])
    return srcs, [bytes(c for p in to_rgba(idx, pal) for c in p) for idx in frames]


def make_gs(F):
    out = F.out
    # Full-frame source animation (one global palette), then gifsicle -O2 / -O3.
    W, H = 40, 30
    pal = palette(16, 2001)
    base = indices(W, H, 10, 2002)
    fidx = []
    for i in range(6):
        idx = list(base)
        for yy in range(H):
            for xx in range(W):
                if (xx - 8 - 5 * i) ** 2 + (yy - 10 - 2 * i) ** 2 <= 20:
                    idx[yy * W + xx] = 10 + (i % 3)
                if i >= 3 and 30 <= xx < 36 and 2 <= yy < 6:
                    idx[yy * W + xx] = 13 + (xx % 3)
        fidx.append(idx)
    srcs, exp = still_gifs(F, "gs", W, H, pal, fidx)
    for lvl in ("2", "3"):
        name = "gs-O%s-%dx%d.gif" % (lvl, W, H)
        F.run(GIFSICLE, "--no-warnings", "-O" + lvl, "--loopcount=forever", "-d20", *srcs, "-o", str(out / name))
        F.add(name, exp, frames=6, subrect=True, transparency=True, loop=0, local_tables=False)
    name = "gs-interlaced-O2-%dx%d.gif" % (W, H)
    # -O2 rewrites the frames without the interlace flag, so interlace the optimised file
    F.run(GIFSICLE, "--no-warnings", "--interlace", str(out / ("gs-O2-%dx%d.gif" % (W, H))), "-o", str(out / name))
    F.add(name, exp, frames=6, interlace=[True] * 6, subrect=True)

    # Disposal with positioned sprites (no optimisation): background and previous.
    W, H = 32, 24
    pal = palette(12, 2101)
    bgidx = indices(W, H, 8, 2102)
    g = GifWriter(W, H, gct=pal)
    g.image(0, 0, W, H, bgidx)
    g.trailer()
    bgsrc = F.tmpfile("gsbg.gif")
    g.save(bgsrc)
    sprites = []
    for i, (x, y) in enumerate(((2, 3), (12, 8), (20, 14))):
        sw, sh = 10, 8
        sidx = [8 + (a * b + i) % 4 if (a - 4.5) ** 2 + (b - 3.5) ** 2 <= 16 else 12
                for b in range(sh) for a in range(sw)]
        g = GifWriter(sw, sh, gct=pal + [(0, 0, 0)])
        g.gce(transparent=12)
        g.image(0, 0, sw, sh, sidx)
        g.trailer()
        s = F.tmpfile("gss%d.gif" % i)
        g.save(s)
        sprites.append((x, y, sw, sh, sidx, s))
    for disp, code in (("background", 2), ("previous", 3)):
        name = "gs-dispose-%s-%dx%d.gif" % (disp, W, H)
        cmd = [GIFSICLE, "--no-warnings", "--logical-screen", "%dx%d" % (W, H), "--loopcount=forever",
               "-d20", "--disposal=none", bgsrc, "--disposal=" + disp]
        for (x, y, sw, sh, sidx, s) in sprites:
            cmd += ["--position", "%d,%d" % (x, y), s]
        F.run(*cmd, "-o", str(out / name))
        exp = composite(W, H, [full(W, H, indexed_px(bgidx, pal), 0)] + [
            {"x": x, "y": y, "w": sw, "h": sh, "px": indexed_px(sidx, pal, 12), "disposal": code}
            for (x, y, sw, sh, sidx, s) in sprites])
        # gifsicle writes --disposal=none as 0 (unspecified)
        F.add(name, exp, frames=4, disposal=[0, code, code, code], transparency=True, subrect=True)

    # Loop counts 1 and 5 (NETSCAPE2.0 written as given), delays 0/1/20.
    w, h = 12, 8
    pal = palette(4, 2201)
    fidx = [indices(w, h, 4, 2210 + i) for i in range(3)]
    srcs, exp = still_gifs(F, "gl", w, h, pal, fidx)
    for loop in (1, 5):
        name = "gs-loop%d-%dx%d.gif" % (loop, w, h)
        F.run(GIFSICLE, "--no-warnings", "--loopcount=%d" % loop, "-d0", srcs[0], "-d1", srcs[1], "-d20", srcs[2],
              "-o", str(out / name))
        # gifsicle writes no GCE at all for a frame whose delay is 0 (and that needs nothing else)
        F.add(name, exp, frames=3, loop=loop, delays=[None, 1, 20])
    name = "gs-noloop-%dx%d.gif" % (w, h)
    F.run(GIFSICLE, "--no-warnings", "--no-loopcount", "-d20", *srcs, "-o", str(out / name))
    F.add(name, exp, frames=3, loop=None, delays=[20, 20, 20])


def make_py(F):
    out = F.out

    def save(name, g):
        g.save(out / name)

    # LZW minimum code size 1 (what some encoders write for 2 colours) and 2 (the spec's minimum).
    w, h = 8, 4
    pal = palette(2, 3001)
    idx = indices(w, h, 2, 3002)
    for mcs in (1, 2):
        g = GifWriter(w, h, gct=pal)
        g.image(0, 0, w, h, idx, mcs=mcs)
        g.trailer()
        name = "py-mcs%d-pal2-%dx%d.gif" % (mcs, w, h)
        save(name, g)
        F.add(name, [bytes(c for p in to_rgba(idx, pal) for c in p)], mcs=[mcs], gct=2)

    # Table full: a deferred clear (300 more 12-bit codes without new entries, then clear),
    # and a table that is never cleared once full.
    w, h = 160, 120
    pal = palette(64, 3101)
    idx = indices(w, h, 64, 3102, kind="noise")
    exp = [bytes(c for p in to_rgba(idx, pal) for c in p)]
    for how, kw in (("deferred-clear", {"full": "defer", "defer": 300}), ("never-clear", {"full": "never"})):
        g = GifWriter(w, h, gct=pal)
        g.image(0, 0, w, h, idx, mcs=6, **kw)
        g.trailer()
        name = "py-lzw-%s-%dx%d.gif" % (how, w, h)
        save(name, g)
        F.add(name, exp, gct=64)

    # No end-of-information code; extra pixels after the frame is full; too few pixels.
    w, h = 16, 8
    pal = palette(8, 3201)
    idx = indices(w, h, 8, 3202)
    exp = [bytes(c for p in to_rgba(idx, pal) for c in p)]
    g = GifWriter(w, h, gct=pal)
    g.image(0, 0, w, h, idx, mcs=3, eoi=False)
    g.trailer()
    save("py-lzw-no-eoi-%dx%d.gif" % (w, h), g)
    F.add("py-lzw-no-eoi-%dx%d.gif" % (w, h), exp)
    g = GifWriter(w, h, gct=pal)
    g.image(0, 0, w, h, idx + indices(37, 1, 8, 3203), mcs=3)
    g.trailer()
    save("py-lzw-extra-pixels-%dx%d.gif" % (w, h), g)
    F.add("py-lzw-extra-pixels-%dx%d.gif" % (w, h), exp)
    g = GifWriter(w, h, gct=pal)
    g.image(0, 0, w, h, idx[:w * h - 20], mcs=3)
    g.trailer()
    save("py-lzw-too-few-pixels-%dx%d.gif" % (w, h), g)
    F.add("py-lzw-too-few-pixels-%dx%d.gif" % (w, h), "error")

    # No trailer after a complete 2-frame animation (giflib refuses; browsers show both frames).
    g = GifWriter(w, h, gct=pal)
    g.netscape(0)
    g.gce(delay=20)
    g.image(0, 0, w, h, idx)
    g.gce(delay=20)
    g.image(4, 2, 6, 4, indices(6, 4, 8, 3204))
    save("py-no-trailer-%dx%d.gif" % (w, h), g)
    F.add("py-no-trailer-%dx%d.gif" % (w, h), "error", trailer=False, frames=2)

    # No colour table at all for frame 1 (frame 0 has a local table; there is no global table):
    # every index draws opaque black, except the transparent index.
    w, h = 8, 8
    lpal = palette(4, 3301)
    i0 = indices(w, h, 4, 3302)
    i1 = indices(6, 5, 4, 3303)
    g = GifWriter(w, h)
    g.gce(delay=20)
    g.image(0, 0, w, h, i0, lct=lpal)
    g.gce(delay=20, transparent=1)
    g.image(1, 2, 6, 5, i1)
    g.trailer()
    name = "py-no-colour-table-%dx%d.gif" % (w, h)
    save(name, g)
    F.add(name, composite(w, h, [full(w, h, indexed_px(i0, lpal)),
                                 {"x": 1, "y": 2, "w": 6, "h": 5, "px": indexed_px(i1, None, 1)}]),
          gct=0, lct=[4, 0], transparency=True)

    # Indices beyond a 4-entry global table (LZW code size 3): opaque black; a transparent
    # index (6) that is beyond the table is still transparent.
    pal = palette(4, 3401)
    i0 = indices(w, h, 8, 3402)
    g = GifWriter(w, h, gct=pal)
    g.gce(delay=20)
    g.image(0, 0, w, h, [i % 4 for i in i0], mcs=3)
    g.gce(delay=20, transparent=6)
    g.image(0, 0, w, h, i0, mcs=3)
    g.trailer()
    name = "py-index-out-of-range-%dx%d.gif" % (w, h)
    save(name, g)
    F.add(name, composite(w, h, [full(w, h, indexed_px([i % 4 for i in i0], pal)),
                                 full(w, h, indexed_px(i0, pal, 6))]), gct=4, mcs=[3, 3])

    # Frame rectangles past the logical screen: clipped, never growing the canvas; a frame
    # entirely outside; dispose-to-background of a clipped rectangle.
    W, H = 16, 12
    pal = palette(8, 3501)
    b0 = indices(W, H, 4, 3502)
    f1 = indices(10, 8, 8, 3503)
    f2 = indices(4, 4, 8, 3504)
    f3 = indices(20, 3, 8, 3505)
    g = GifWriter(W, H, gct=pal)
    g.gce(delay=20)
    g.image(0, 0, W, H, b0)
    g.gce(disposal=2, delay=20)
    g.image(10, 8, 10, 8, f1)
    g.gce(delay=20)
    g.image(20, 20, 4, 4, f2)
    g.gce(delay=20)
    g.image(0, 5, 20, 3, f3)
    g.trailer()
    name = "py-rect-past-screen-%dx%d.gif" % (W, H)
    save(name, g)
    F.add(name, composite(W, H, [full(W, H, indexed_px(b0, pal)),
                                 {"x": 10, "y": 8, "w": 10, "h": 8, "px": indexed_px(f1, pal), "disposal": 2},
                                 {"x": 20, "y": 20, "w": 4, "h": 4, "px": indexed_px(f2, pal)},
                                 {"x": 0, "y": 5, "w": 20, "h": 3, "px": indexed_px(f3, pal)}]),
          frames=4, disposal=[0, 2, 0, 0])

    # Disposal values: previous on the first frame; 4 (read as previous by browsers); 5-7 (none).
    W, H = 16, 12
    pal = palette(8, 3601) + [(0, 0, 0)]
    s_idx = [i if i != 2 else 8 for i in indices(6, 5, 8, 3602)]   # index 8 transparent
    bg_idx = indices(W, H, 8, 3603)

    def sprite_anim(name, codes, first_sub=False):
        g = GifWriter(W, H, gct=pal)
        frames = []
        if first_sub:
            g.gce(disposal=codes[0], delay=20, transparent=8)
            g.image(3, 3, 6, 5, s_idx)
            frames.append({"x": 3, "y": 3, "w": 6, "h": 5, "px": indexed_px(s_idx, pal, 8), "disposal": codes[0]})
            codes = codes[1:]
        else:
            g.gce(disposal=1, delay=20)
            g.image(0, 0, W, H, bg_idx)
            frames.append(full(W, H, indexed_px(bg_idx, pal), 1))
        for k, c in enumerate(codes):
            x, y = 2 + 4 * k, 1 + 2 * k
            g.gce(disposal=c, delay=20, transparent=8)
            g.image(x, y, 6, 5, s_idx)
            frames.append({"x": x, "y": y, "w": 6, "h": 5, "px": indexed_px(s_idx, pal, 8), "disposal": c})
        g.trailer()
        save(name, g)
        return frames

    name = "py-dispose-previous-first-%dx%d.gif" % (W, H)
    fr = sprite_anim(name, [3, 1, 1], first_sub=True)
    F.add(name, composite(W, H, fr), disposal=[3, 1, 1])
    name = "py-dispose4-%dx%d.gif" % (W, H)
    fr = sprite_anim(name, [4, 4, 1])
    F.add(name, composite(W, H, fr), disposal=[1, 4, 4, 1])
    name = "py-dispose5-7-%dx%d.gif" % (W, H)
    fr = sprite_anim(name, [5, 6, 7])
    F.add(name, composite(W, H, fr), disposal=[1, 5, 6, 7])

    # Two graphic control extensions before one image: the last one applies (no transparency,
    # delay 30); Pillow keeps the first one's transparent index.
    w, h = 8, 8
    pal = palette(4, 3701)
    i0 = indices(w, h, 4, 3702)
    g = GifWriter(w, h, gct=pal)
    g.gce(delay=10, transparent=0)
    g.gce(delay=30)
    g.image(0, 0, w, h, i0)
    g.trailer()
    name = "py-two-gces-%dx%d.gif" % (w, h)
    save(name, g)
    F.add(name, [bytes(c for p in to_rgba(i0, pal) for c in p)], delays=[30], transparency=False)

    # Interlaced frames of height 5, 1 and 2 (the passes that start at rows 4, 2, 1 are empty
    # or short), as sub-rectangles.
    W, H = 7, 5
    pal = palette(8, 3801)
    i0 = indices(W, H, 8, 3802)
    i1 = indices(5, 1, 8, 3803)
    i2 = indices(3, 2, 8, 3804)
    g = GifWriter(W, H, gct=pal)
    g.netscape(0)
    g.gce(delay=20)
    g.image(0, 0, W, H, i0, interlace=True)
    g.gce(delay=20)
    g.image(1, 2, 5, 1, i1, interlace=True)
    g.gce(delay=20)
    g.image(4, 3, 3, 2, i2, interlace=True)
    g.trailer()
    name = "py-interlaced-small-%dx%d.gif" % (W, H)
    save(name, g)
    F.add(name, composite(W, H, [full(W, H, indexed_px(i0, pal)),
                                 {"x": 1, "y": 2, "w": 5, "h": 1, "px": indexed_px(i1, pal)},
                                 {"x": 4, "y": 3, "w": 3, "h": 2, "px": indexed_px(i2, pal)}]),
          interlace=[True, True, True], loop=0)


def main(argv):
    dirs = fresh_fixture_dirs(argv, __doc__, "gif")
    if dirs is None:
        return 2
    out, = dirs
    giflib = Giflib()
    tmp = tempfile.mkdtemp(prefix="gif_fixtures.")
    try:
        F = Fixtures(out, tmp, giflib)
        make_im(F)
        make_gs(F)
        make_py(F)
    finally:
        giflib.close()
        shutil.rmtree(tmp, ignore_errors=True)
    files = sorted(out.glob("*.gif"))
    total = sum(f.stat().st_size for f in files)
    print("wrote %d GIF fixtures (%d bytes) in %s; all checks passed" % (len(files), total, out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
