#!/usr/bin/env python3
"""Make the raw-frame manifests (ImageSource.rawFrame, FrameProperties.hasAlpha) from REFERENCE
tools: every frame of every animation, before composition, with its rectangle and alpha.

Never uses the project's own decoder. References, per format:
  * GIF: giflib's DGifSlurp() through scripts/gif_composite.c --frames: each image's own pixels
    on a transparent raster of its rectangle clipped to the logical screen (the transparent
    index left transparent; the palette rules of gif.tsv); hasAlpha = the GCE that applies to
    the image (the last one before it) has the transparency flag.
  * APNG: each frame cut out as the PNG it is (APNG 1.0: the IHDR with the fcTL's width and
    height, PLTE and tRNS, the frame's IDAT or fdAT data as IDAT, IEND) and decoded by libspng
    (scripts/spng_rgba.c); the frames and their rectangles (fcTL) are checked against Pillow's
    (n_frames, dispose_extent), and a file where they differ is left out (listed in the header).
    hasAlpha = Pillow's mode has alpha (RGBA, LA, PA) or info has 'transparency' (a tRNS chunk).
    Pillow's decode of the cut-out PNGs is a second opinion; the header counts its agreement.
  * WebP: `webpmux -info` (rectangle and alpha column: the demuxer's WebPIterator.has_alpha, an
    ALPH chunk or VP8L's alpha bit), `webpmux -get frame N` then `dwebp -pam` (libwebp).
The sha256 is over the canonical bytes of the frame's rectangle: RGBA8, straight alpha, rows
top to bottom, alpha 0 -> 0,0,0,0, 16-bit samples -> v >> 8.

Usage (from anywhere):
  python3 Conformance/scripts/make_raw_frame_manifests.py            # corpus (if present) + fixtures
  python3 Conformance/scripts/make_raw_frame_manifests.py corpus     # raw-frames.tsv
  python3 Conformance/scripts/make_raw_frame_manifests.py fixtures   # fixtures-raw-frames.tsv

Manifest rows (TSV, '#' lines are comments), one per frame of each file a reference reads whole:
  path <TAB> frame <TAB> x <TAB> y <TAB> WxH <TAB> hasAlpha (yes|no) <TAB> sha256
"""

import struct
import subprocess
import sys
import tempfile
import warnings
import zlib
from pathlib import Path

sys.dont_write_bytecode = True   # no __pycache__ beside the scripts
sys.path.insert(0, str(Path(__file__).resolve().parent))
from manifest_common import (  # noqa: E402
    CONF, FIXTURES, MANIFESTS, canonical_from_pillow, clean, corpus_with, files_under, indented, limits,
    manifests_to_make, pillow_version, sha, write_tsv)
from make_gif_manifests import Giflib, gifs_under  # noqa: E402
from make_manifests import Spng, apng_files, chunks  # noqa: E402
from make_webp_manifests import canonical, dwebp_version, parse_pam, riff_chunks  # noqa: E402

COLUMNS = ["path", "frame", "x", "y", "size", "hasAlpha", "sha256"]


def yes(flag):
    return "yes" if flag else "no"


# --------------------------------------------------------------------------
# GIF: giflib

def gif_rows(giflib, path, rel):
    """-> (rows, None) or (None, why the file is left out)."""
    images = giflib.images(path)
    if images is None:
        return None, "giflib refuses the file"
    return [(rel, im["index"], im["x"], im["y"], im["size"], yes(im["tindex"] != "-"), im["sha"])
            for im in images], None


# --------------------------------------------------------------------------
# APNG: frames cut out as PNGs, decoded by libspng; Pillow for the frame list and alpha

def png_chunk(ctype, payload):
    return struct.pack(">I", len(payload)) + ctype + payload + struct.pack(">I", zlib.crc32(ctype + payload))


def apng_frames(data):
    """The animation frames as (x, y, width, height, PNG bytes): each fcTL (APNG 1.0) with the
    IDAT data after it (the default image is frame 0) or the fdAT payloads after their sequence
    numbers, up to acTL's num_frames. None when the file has no acTL or a frame has no data."""
    ihdr, palette, trns, frames, num_frames, seen_idat = None, b"", b"", [], None, False
    for ctype, off, length in chunks(data):
        payload = data[off:off + length]
        if ctype == b"IHDR":
            ihdr = payload
        elif ctype in (b"PLTE", b"tRNS") and not seen_idat:
            if ctype == b"PLTE":
                palette = png_chunk(ctype, payload)
            else:
                trns = png_chunk(ctype, payload)
        elif ctype == b"acTL" and length == 8:
            num_frames = struct.unpack(">I", payload[:4])[0]
        elif ctype == b"fcTL" and length == 26:
            _, w, h, x, y = struct.unpack(">IIIII", payload[:20])
            frames.append([x, y, w, h, []])
        elif ctype == b"IDAT":
            seen_idat = True
            if len(frames) == 1:
                frames[0][4].append(payload)
        elif ctype == b"fdAT" and frames and length >= 4:
            frames[-1][4].append(payload[4:])
    if ihdr is None or num_frames is None:
        return None
    frames = frames[:num_frames]
    if not frames or any(not f[4] for f in frames):
        return None
    out = []
    for x, y, w, h, parts in frames:
        header = struct.pack(">II", w, h) + ihdr[8:13]
        png = (data[:8] + png_chunk(b"IHDR", header) + palette + trns
               + png_chunk(b"IDAT", b"".join(parts)) + png_chunk(b"IEND", b""))
        out.append((x, y, w, h, png))
    return out


def pillow_apng(path):
    """Pillow's animation frames of an APNG: ([(x, y, w, h)], hasAlpha), or None when Pillow does
    not read it as an animation. Pillow counts a default image that is not part of the animation
    as its frame 0; that frame is dropped."""
    from PIL import Image
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")    # "Invalid APNG": such files are left out below
        try:
            with Image.open(path) as im:
                if im.png is None or im.png.im_n_frames is None:
                    return None
                alpha = im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info
                first = 1 if getattr(im, "default_image", False) else 0
                rects = []
                for i in range(first, im.n_frames):
                    im.seek(i)
                    x0, y0, x1, y1 = im.dispose_extent
                    rects.append((x0, y0, x1 - x0, y1 - y0))
                return rects, alpha
        except Exception:  # noqa: BLE001 - a file Pillow refuses is left out
            return None


def pillow_png_sha(path):
    from PIL import Image
    try:
        with Image.open(path) as im:
            return sha(canonical_from_pillow(im))
    except Exception:  # noqa: BLE001
        return None


def apng_rows(spng, path, rel, agreement):
    """-> (rows, None) or (None, why the file is left out); counts Pillow's agreement on the
    cut-out frames in `agreement` ([equal, frames])."""
    frames = apng_frames(path.read_bytes())
    if frames is None:
        return None, "no acTL, or a frame without data"
    pillow = pillow_apng(path)
    if pillow is None:
        return None, "Pillow does not read it as an animation"
    rects, alpha = pillow
    if rects != [f[:4] for f in frames]:
        return None, "Pillow's frames differ: %s" % rects
    rows = []
    with tempfile.TemporaryDirectory(prefix="apng-frames.") as tmp:
        for i, (x, y, w, h, png) in enumerate(frames):
            cut = Path(tmp) / ("frame%d.png" % i)
            cut.write_bytes(png)
            r = spng.decode(cut)
            if r["status"] != "ok":
                return None, "libspng refuses frame %d: %s" % (i, r.get("msg", r["status"]))
            agreement[0] += pillow_png_sha(cut) == r["sha"]
            agreement[1] += 1
            rows.append((rel, i, x, y, r["size"], yes(alpha), r["sha"]))
    return rows, None


# --------------------------------------------------------------------------
# WebP: webpmux and dwebp

def webpmux_frames(path):
    """`webpmux -info` -> [(x, y, width, height, alpha)] of an animation, or None."""
    p = subprocess.run(["webpmux", "-info", str(path)], capture_output=True, text=True, timeout=60,
                       preexec_fn=limits)
    if p.returncode != 0 or "animation" not in p.stdout:
        return None
    frames = []
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 6 and parts[0].endswith(":") and parts[0][:-1].isdigit():
            w, h, alpha, x, y = parts[1:6]
            frames.append((int(x), int(y), int(w), int(h), alpha == "yes"))
    return frames


def webp_frame(path, n, tmp):
    """Frame n (from 1) cut out by `webpmux -get frame` and decoded by `dwebp -pam` ->
    (size, canonical sha256) or None."""
    cut, pam = Path(tmp) / ("frame%d.webp" % n), Path(tmp) / ("frame%d.pam" % n)
    for cmd in (["webpmux", "-get", "frame", str(n), str(path), "-o", str(cut)],
                ["dwebp", "-pam", str(cut), "-o", str(pam)]):
        if subprocess.run(cmd, capture_output=True, timeout=60, preexec_fn=limits).returncode != 0:
            return None
    decoded = parse_pam(pam.read_bytes())
    if decoded is None:
        return None
    w, h, rgba = decoded
    return "%dx%d" % (w, h), sha(canonical(rgba))


def webp_rows(path, rel):
    frames = webpmux_frames(path)
    if not frames:
        return None, "webpmux reads no animation"
    rows = []
    with tempfile.TemporaryDirectory(prefix="webp-frames.") as tmp:
        for i, (x, y, w, h, alpha) in enumerate(frames):
            decoded = webp_frame(path, i + 1, tmp)
            if decoded is None:
                return None, "webpmux or dwebp refuses frame %d" % i
            if decoded[0] != "%dx%d" % (w, h):
                return None, "frame %d decodes to %s, webpmux says %dx%d" % (i, decoded[0], w, h)
            rows.append((rel, i, x, y, decoded[0], yes(alpha), decoded[1]))
    return rows, None


def animated_webps(files):
    out = []
    for f in files:
        names = [c for c, _ in riff_chunks(f.read_bytes()) or []]
        if "ANMF" in names:
            out.append(f)
    return out


# --------------------------------------------------------------------------
# Manifests

def manifest(out, title, base, gifs, apngs, webps, giflib, spng):
    rows, left_out, agreement = [], [], [0, 0]
    counts = {}
    for kind, files, make in (("GIF", gifs, lambda f, rel: gif_rows(giflib, f, rel)),
                              ("APNG", apngs, lambda f, rel: apng_rows(spng, f, rel, agreement)),
                              ("WebP", webps, webp_rows)):
        made = 0
        for f in files:
            rel = f.relative_to(base).as_posix()
            file_rows, why = make(f, rel)
            if file_rows is None:
                left_out.append("%s: %s" % (rel, clean(why)))
                continue
            rows += file_rows
            made += 1
        counts[kind] = (made, len(files))
    header = [
        title,
        "Every frame before composition: its rectangle on the canvas (clipped to it), whether its own",
        "  pixels can be non-opaque, and the canonical SHA-256 of its pixels (the rectangle only).",
        "GIF: %s DGifSlurp() via gif_composite.c --frames; hasAlpha: a transparent index." % giflib.version,
        "APNG: each frame cut out as a PNG (fcTL size, PLTE, tRNS, its data as IDAT), decoded by %s;" % spng.version,
        "  frames and rectangles checked against %s; hasAlpha: Pillow's mode has alpha or tRNS." % pillow_version(),
        "  Pillow's decode of the cut-out frames agrees on %d of %d." % tuple(agreement),
        "WebP: webpmux -info (rectangle, alpha) and webpmux -get frame N | %s -pam." % dwebp_version(),
        "Made by Conformance/scripts/make_raw_frame_manifests.py. Files (read / considered): "
        + ", ".join("%s %d/%d" % (k, v[0], v[1]) for k, v in counts.items()) + "; frame rows: %d." % len(rows),
        "Left out (a reference does not read the file whole):",
    ] + indented(left_out)
    write_tsv(out, header, COLUMNS, rows)


def do_corpus(giflib, spng):
    root = corpus_with("gif")
    if root is None:
        return
    manifest(MANIFESTS / "raw-frames.tsv",
             "Raw frames of the corpus animations: *.gif under gif/, the APNGs of apng.tsv, animated *.webp under"
             " webp/ (paths relative to the corpus root).", root,
             gifs_under(root / "gif"), apng_files(root),
             animated_webps(files_under(root / "webp", suffixes=(".webp",))), giflib, spng)


def do_fixtures(giflib, spng):
    manifest(MANIFESTS / "fixtures-raw-frames.tsv",
             "Raw frames of the generated animations: fixtures/gif, fixtures/apng, the animated fixtures/webp"
             " (paths relative to Conformance/).", CONF,
             gifs_under(FIXTURES / "gif"), files_under(FIXTURES / "apng", suffixes=(".png",)),
             animated_webps(files_under(FIXTURES / "webp", suffixes=(".webp",))), giflib, spng)


def main(argv):
    what = manifests_to_make(argv, __doc__)
    if what is None:
        return 2
    giflib, spng = Giflib(), Spng()
    try:
        if what in ("all", "corpus"):
            do_corpus(giflib, spng)
        if what in ("all", "fixtures"):
            do_fixtures(giflib, spng)
    finally:
        giflib.close()
        spng.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
