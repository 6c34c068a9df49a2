#!/usr/bin/env python3
"""Make the ImageCodecs GIF conformance manifests from REFERENCE decoders.

Never uses the project's own decoder. References:
  * Composited frames: giflib's DGifSlurp() composited with the browser semantics, through
    scripts/gif_composite.c (compiled into a temporary directory with
    `cc -O2 gif_composite.c -lgif`). See Conformance/README.md, "GIF".
  * Frame count, loop count, durations: Pillow (GifImagePlugin).
  * pygif-test-suite expected frames: converted to canonical hashes (pygif.tsv).
Second opinions, informational only (*gif-disagreements.tsv): Pillow's composited frames, and
the upstream reference renders in the corpus (peterdn frames, image-rs references, giflib .rgb).

Usage (from anywhere):
  python3 Conformance/scripts/make_gif_manifests.py            # corpus (if present) + fixtures
  python3 Conformance/scripts/make_gif_manifests.py corpus     # corpus manifests only
  python3 Conformance/scripts/make_gif_manifests.py fixtures   # fixture manifests only

Corpus root: $IMAGECODECS_CORPUS, else <project root>/../shared/corpus.

Manifest rows (TSV, '#' lines are comments):
  path <TAB> frame <TAB> WxH <TAB> sha256      one row per frame (= per image descriptor)
  path <TAB> -     <TAB> -   <TAB> error       giflib refuses the file
The sha256 is over the canonical bytes: RGBA8, not premultiplied, rows top to bottom,
no padding, the full logical screen after compositing, alpha 0 -> 0,0,0,0.
"""

import configparser
import struct
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

sys.dont_write_bytecode = True   # no __pycache__ beside the scripts
sys.path.insert(0, str(Path(__file__).resolve().parent))
from manifest_common import (  # noqa: E402
    CONF, DISAGREEMENT_COLUMNS, FIXTURES, FRAME_COLUMNS, MANIFESTS, CHelper, canonical_from_pillow, clean,
    corpus_with, files_under, indented, library_version, limits, manifests_to_make, pillow_version, sha,
    write_crashers, write_tsv)


# --------------------------------------------------------------------------
# GIF block structure (no LZW decoding). Used for the image descriptor count, the GCE
# values per image as browsers read them, the loop extensions, and the repaired copies.

DISPOSAL_NAMES = {0: "none", 1: "none", 2: "background", 3: "previous", 4: "previous"}


def browser_disposal(raw):
    """GCE disposal bits -> the browsers' reading (Firefox and Chromium/Wuffs map 4 to
    'previous'; 5-7 are 'none')."""
    return DISPOSAL_NAMES.get(raw, "none")


def parse_gif(data):
    """Walk the blocks of a GIF the way browsers do (stop at the trailer, at an unknown
    block byte, or at the end of data).

    -> dict(version, width, height, gct, images=[...], loops=[...], end=..., empty_exts=[...])
    images: dict(offset, x, y, w, h, lct, interlace, mcs, end (offset after the data
            terminator, or None when the data is cut off), gces=[(flags, delay, tindex, len)])
    loops:  (offset, kind 'NETSCAPE2.0'|'ANIMEXTS1.0', value, before_first_image)
    end:    'trailer' | 'eof' (no trailer) | 'truncated' | 'bad block 0xNN at N'
    """
    res = {"version": None, "width": 0, "height": 0, "gct": 0, "images": [], "loops": [],
           "end": "eof", "empty_exts": [], "plain_text": 0}
    if len(data) < 13 or data[:6] not in (b"GIF87a", b"GIF89a"):
        res["end"] = "not a GIF"
        return res
    res["version"] = data[:6].decode()
    res["width"], res["height"], flags = struct.unpack("<HHB", data[6:11])
    pos = 13
    if flags & 0x80:
        res["gct"] = 2 << (flags & 7)
        pos += 3 * res["gct"]
    pending = []
    n = len(data)

    def sub_blocks(p):
        """-> (list of (offset, length), offset after the terminator or None)"""
        blocks = []
        while p < n:
            ln = data[p]
            if ln == 0:
                return blocks, p + 1
            if p + 1 + ln > n:
                return blocks, None
            blocks.append((p + 1, ln))
            p += 1 + ln
        return blocks, None

    while True:
        if pos >= n:
            res["end"] = "eof"
            break
        b = data[pos]
        if b == 0x3B:
            res["end"] = "trailer"
            break
        if b == 0x21:
            if pos + 2 > n:
                res["end"] = "truncated"
                break
            label = data[pos + 1]
            blocks, after = sub_blocks(pos + 2)
            if pos + 2 < n and data[pos + 2] == 0:
                res["empty_exts"].append((pos, label))
            if label == 0xF9 and blocks:
                off, ln = blocks[0]
                if ln >= 4:
                    pending.append((data[off], data[off + 1] | data[off + 2] << 8, data[off + 3], ln))
            elif label == 0xFF and len(blocks) >= 2 and blocks[0][1] == 11:
                ident = data[blocks[0][0]:blocks[0][0] + 11]
                if ident in (b"NETSCAPE2.0", b"ANIMEXTS1.0"):
                    off, ln = blocks[1]
                    if ln >= 3 and data[off] & 7 == 1:
                        res["loops"].append((pos, ident.decode(), data[off + 1] | data[off + 2] << 8,
                                             not res["images"]))
            elif label == 0x01:
                res["plain_text"] += 1
            if after is None:
                res["end"] = "truncated"
                break
            pos = after
            continue
        if b == 0x2C:
            if pos + 10 > n:
                res["end"] = "truncated"
                break
            x, y, w, h, f2 = struct.unpack("<HHHHB", data[pos + 1:pos + 10])
            img = {"offset": pos, "x": x, "y": y, "w": w, "h": h, "interlace": bool(f2 & 0x40),
                   "lct": (2 << (f2 & 7)) if f2 & 0x80 else 0, "gces": pending, "mcs": None, "end": None}
            pending = []
            res["images"].append(img)
            p = pos + 10 + 3 * img["lct"]
            if p >= n:
                res["end"] = "truncated"
                break
            img["mcs"] = data[p]
            _, after = sub_blocks(p + 1)
            if after is None:
                res["end"] = "truncated"
                break
            img["end"] = after
            pos = after
            continue
        res["end"] = "bad block 0x%02X at %d" % (b, pos)
        break
    return res


# --------------------------------------------------------------------------
# giflib reference (scripts/gif_composite.c)

class Giflib(CHelper):
    def __init__(self):
        super().__init__("gif_composite", "gif")
        self.version = library_version("giflib", "libgif7", "gif_lib.h", "GIFLIB_MAJOR.GIFLIB_MINOR.GIFLIB_RELEASE")

    def run(self, path):
        """-> dict(status=ok|error|crash|timeout, frames=[dict], notes=[str], msg, screen)"""
        p, msg, failed = self.execute(str(path))
        if failed:
            return dict(failed, frames=[], notes=[])
        if p.returncode == 1:
            return {"status": "error", "msg": msg, "frames": [], "notes": []}
        if p.returncode != 0:
            raise RuntimeError("gif_composite failed on %s: rc=%d %s" % (path, p.returncode, msg))
        res = {"status": "ok", "msg": msg, "frames": [], "notes": [], "screen": None}
        for line in p.stdout.decode().splitlines():
            if line.startswith("screen "):
                res["screen"] = line
            elif line.startswith("frame "):
                parts = line.split()
                fr = {"index": int(parts[1]), "size": parts[2], "sha": parts[3],
                      "rect": tuple(int(v) for v in parts[4:8])}
                for kv in parts[8:]:
                    k, v = kv.split("=", 1)
                    fr[k] = v
                res["frames"].append(fr)
            elif line.startswith("note: "):
                res["notes"].append(line[6:])
        return res

    def images(self, path):
        """Each image's own pixels, not composited (gif_composite --frames) -> [dict(index,
        size, sha, x, y, tindex)], or None when giflib refuses the file."""
        p, msg, failed = self.execute("--frames", str(path))
        if failed or p.returncode != 0:
            return None
        out = []
        for line in p.stdout.decode().splitlines():
            if line.startswith("image "):
                parts = line.split()
                out.append({"index": int(parts[1]), "size": parts[2], "sha": parts[3],
                            "x": int(parts[4]), "y": int(parts[5]), "tindex": parts[6].split("=", 1)[1]})
        return out

    def raw(self, path):
        """-> (width, height, [canonical RGBA bytes per frame]) or None when giflib refuses."""
        p = subprocess.run([self.exe, "--raw", str(path)], capture_output=True, timeout=60,
                           preexec_fn=limits)
        if p.returncode != 0:
            return None
        nl = p.stdout.index(b"\n")
        w, h, n = (int(v) for v in p.stdout[:nl].split())
        pix = p.stdout[nl + 1:]
        fs = w * h * 4
        assert len(pix) == n * fs, (path, len(pix), n, fs)
        return w, h, [pix[i * fs:(i + 1) * fs] for i in range(n)]


def repaired_copies(data, info):
    """Minimal repairs after which giflib may accept a file that it refuses, each an
    approximation of what browsers display:
      * extensions with no data sub-block (21 xx 00) removed (giflib 5.2.1's DGifSlurp
        reads one byte too many after such an extension);
      * the longest prefix that ends after a complete image's data, plus a trailer
        (browsers show the frames that arrived before a truncation or junk).
    Yields (description, bytes, number of images kept)."""
    if info["empty_exts"]:
        drop = sorted(o for o, _ in info["empty_exts"])
        out, last = bytearray(), 0
        for o in drop:
            out += data[last:o]
            last = o + 3
        out += data[last:]
        yield ("%d empty extension(s) removed" % len(drop), bytes(out), None)
        data = bytes(out)
        info = parse_gif(data)
    complete = [im for im in info["images"] if im["end"] is not None]
    for k in range(len(complete), 0, -1):
        end = complete[k - 1]["end"]
        if end == len(data) - 1 and data[-1] == 0x3B:
            continue
        yield ("prefix with the first %d image(s) + trailer" % k, data[:end] + b";", k)


# --------------------------------------------------------------------------
# Pillow (frame count, loop count, durations; composited frames as a second opinion)

def pillow_gif(path, composite=True):
    """-> dict(ok, n, loop, durations, disposal_method, modes, sizes, frames=[(size, sha)], error)

    One Image object, seek(0), seek(1), ... in order (the GIF plugin's normal path; the
    APNG aliasing problem described in the README does not apply to GifImagePlugin)."""
    from PIL import Image
    res = {"ok": False, "n": None, "loop": None, "durations": [], "disposal_method": [],
           "modes": [], "sizes": [], "frames": [], "error": None, "warnings": []}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with Image.open(path) as im:
                n = im.n_frames
                res["n"] = n
                for i in range(n):
                    im.seek(i)
                    im.load()
                    res["durations"].append(im.info.get("duration"))
                    res["disposal_method"].append(im.disposal_method)
                    res["modes"].append(im.mode)
                    res["sizes"].append("%dx%d" % im.size)
                    if composite:
                        res["frames"].append(("%dx%d" % im.size, sha(canonical_from_pillow(im))))
                res["loop"] = im.info.get("loop")
                res["background"] = im.info.get("background")
                res["ok"] = True
        except Exception as e:  # noqa: BLE001 - any refusal is an error
            res["error"] = clean("%s: %s" % (type(e).__name__, e))
    for w in caught:
        res["warnings"].append(clean(str(w.message)))
    return res


def pillow_disposal_name(v):
    # GifImagePlugin: 2 -> background, any value >= 3 -> previous, 0/1 -> none.
    return "none" if v < 2 else ("background" if v == 2 else "previous")


# --------------------------------------------------------------------------
# Manifests

def frame_manifest(giflib, files, base, out, title):
    """gif.tsv / fixtures-gif.tsv. Returns {rel: giflib result}."""
    rows, notes, results = [], [], {}
    n_err = 0
    for f in files:
        rel = f.relative_to(base).as_posix()
        r = giflib.run(f)
        results[rel] = r
        if r["status"] != "ok":
            rows.append((rel, "-", "-", "error"))
            n_err += 1
            line = "%s: %s" % (rel, r["msg"])
            data = f.read_bytes()
            info = parse_gif(data)
            line += " [structure: %d image descriptor(s), %s]" % (len(info["images"]), info["end"])
            notes.append(line)
            with tempfile.TemporaryDirectory() as td:
                for how, blob, kept in repaired_copies(data, info):
                    tf = Path(td) / "repaired.gif"
                    tf.write_bytes(blob)
                    rr = giflib.run(tf)
                    if rr["status"] == "ok":
                        notes.append("    after %s giflib gives %d frame(s): %s" % (
                            how, len(rr["frames"]),
                            ", ".join("%d %s %s" % (fr["index"], fr["size"], fr["sha"]) for fr in rr["frames"])))
                        break
            continue
        for fr in r["frames"]:
            rows.append((rel, fr["index"], fr["size"], fr["sha"]))
        for nt in r["notes"]:
            notes.append("%s: %s" % (rel, nt))
    header = [
        title,
        "Reference: %s DGifSlurp() via Conformance/scripts/gif_composite.c, composited with the" % giflib.version,
        "  browser semantics: one frame per image descriptor; canvas = logical screen, never grown, frame",
        "  rectangles clipped; canvas starts transparent (0,0,0,0), background colour never painted;",
        "  transparent index leaves the canvas; disposal of frame k-1 before frame k: none/unspecified keep,",
        "  background clears the rectangle to (0,0,0,0), previous restores it (on frame 0 = clear),",
        "  4 = previous, 5-7 = none; the last GCE before an image applies; palette entries the file does not",
        "  define (index >= table size, or no colour table at all) are opaque black (0,0,0,255).",
        "Canonical hash: RGBA8 of the full canvas after compositing, alpha 0 -> 0,0,0,0, SHA-256.",
        "Made by Conformance/scripts/make_gif_manifests.py. Files: %d, frame rows: %d, error files: %d."
        % (len(files), len(rows) - n_err, n_err),
        "Error details and per-file notes (informational). For a refused file, the indented line gives",
        "  what giflib decodes after a minimal repair (an approximation of what browsers display):",
    ] + indented(notes)
    write_tsv(out, header, FRAME_COLUMNS, rows)
    return results


def info_manifest(files, base, out, title, giflib_results):
    """gif-info.tsv / fixtures-gif-info.tsv. Returns {rel: pillow result}."""
    rows, results = [], {}
    for f in files:
        rel = f.relative_to(base).as_posix()
        data = f.read_bytes()
        info = parse_gif(data)
        p = pillow_gif(f)
        results[rel] = p
        notes = []
        if not p["ok"]:
            rows.append((rel, "-", "-", "-", "-", "; ".join(["error: " + p["error"]] + p["warnings"])))
            continue
        n = p["n"]
        loop = p["loop"] if p["loop"] is not None else 1
        durs = []
        for i, d in enumerate(p["durations"]):
            durs.append("0" if d is None else str(d))
        # disposal: the frame's own (last) GCE, as browsers read it
        disp = []
        for i in range(n):
            if i < len(info["images"]):
                g = info["images"][i]["gces"]
                raw = ((g[-1][0] >> 2) & 7) if g else 0
                disp.append(browser_disposal(raw))
                if raw >= 4:
                    notes.append("frame %d: GCE disposal %d read as %s" % (i, raw, browser_disposal(raw)))
            else:
                disp.append("-")
        pil_disp = [pillow_disposal_name(v) for v in p["disposal_method"]]
        diff = [str(i) for i in range(n) if disp[i] != "-" and pil_disp[i] != disp[i]]
        if diff:
            notes.append("Pillow disposal_method differs (it keeps the last non-zero value): frame(s) %s -> %s"
                         % (",".join(diff), ",".join(pil_disp[int(i)] for i in diff)))
        if n != len(info["images"]):
            notes.append("Pillow n_frames %d != %d image descriptors found by the block walk (%s)"
                         % (n, len(info["images"]), info["end"]))
        # loop as browsers read it: the last NETSCAPE2.0/ANIMEXTS1.0 anywhere in the file
        if info["loops"]:
            b_loop = info["loops"][-1][2]
            if b_loop != loop:
                notes.append("browsers read loop %d (%s at byte %d%s); Pillow only reads NETSCAPE2.0 before"
                             " the first image" % (b_loop, info["loops"][-1][1], info["loops"][-1][0],
                                                   "" if info["loops"][-1][3] else ", after the first image"))
        if len(set(p["sizes"])) > 1 or (p["sizes"] and p["sizes"][0] != "%dx%d" % (info["width"], info["height"])):
            notes.append("Pillow grows the canvas: sizes %s (logical screen %dx%d)"
                         % (",".join(sorted(set(p["sizes"]))), info["width"], info["height"]))
        g = giflib_results.get(rel)
        if g is not None and g["status"] == "ok" and len(g["frames"]) != n:
            notes.append("giflib composites %d frames" % len(g["frames"]))
        elif g is not None and g["status"] != "ok":
            notes.append("giflib refuses the file")
        notes = ["mode=%s" % ",".join(sorted(set(p["modes"]), key=p["modes"].index))] + notes + p["warnings"]
        rows.append((rel, n, loop, ",".join(durs), ",".join(disp), "; ".join(notes)))
    ver = pillow_version()
    header = [
        title,
        "Frame count, loop count and timing per file. Reference: %s GifImagePlugin." % ver,
        "  frameCount = n_frames. loopCount = info['loop'] (NETSCAPE2.0 loop value, 0 = forever), 1 when",
        "  Pillow reports none. durations: info['duration'] after seek(i), in ms (GCE delay x 10); 0 where",
        "  Pillow reports none (frame without GCE; see notes). disposal: the frame's own GCE as browsers read",
        "  it (the last GCE before the image; 0/1 none, 2 background, 3 and 4 previous, 5-7 none), from the",
        "  block walk in make_gif_manifests.py; notes say where Pillow's disposal_method differs.",
        "  notes: Pillow modes, loop extensions Pillow ignores, canvas growth,",
        "  giflib verdict when it differs. Made by Conformance/scripts/make_gif_manifests.py.",
    ]
    write_tsv(out, header, ["path", "frameCount", "loopCount", "durations", "disposal", "notes"], rows)
    return results


def pillow_cause(rel, info, p, g, i):
    """A short cause for a Pillow/giflib disagreement on frame i (best effort, from the block
    walk and Pillow's modes)."""
    causes = []
    ims = info["images"]

    def raw_disposal(im):
        return ((im["gces"][-1][0] >> 2) & 7) if im["gces"] else 0

    def transparent(im):
        return bool(im["gces"] and im["gces"][-1][0] & 1)

    if p["sizes"] and p["sizes"][min(i, len(p["sizes"]) - 1)] != "%dx%d" % (info["width"], info["height"]):
        causes.append("Pillow grows the canvas to the frame rectangle")
    if i < len(ims) and any(im["lct"] == 0 for im in ims[:i + 1]) and info["gct"] == 0:
        causes.append("no colour table: Pillow uses a greyscale palette (mode L)")
    if ims:
        first = ims[0]
        covers = first["x"] == 0 and first["y"] == 0 and first["w"] >= info["width"] and first["h"] >= info["height"]
        if not covers and not transparent(first):
            causes.append("frame 0 does not cover the canvas and has no transparency: Pillow fills the rest"
                          " with palette index 0 (opaque), browsers leave it transparent")
    for k in range(min(i, len(ims))):
        if raw_disposal(ims[k]) != 2:
            continue
        if not transparent(ims[k]):
            causes.append("dispose to background of a frame without transparency: Pillow paints the"
                          " background colour (opaque), browsers clear to transparent")
        elif p["modes"] and p["modes"][min(k + 1, len(p["modes"]) - 1)] == "RGB":
            causes.append("dispose to background: Pillow's canvas is RGB (frame 0 has no transparency), so the"
                          " cleared rectangle becomes the transparent index's colour, opaque; browsers clear to"
                          " transparent")
        break
    if any(raw_disposal(im) >= 5 for im in ims[:i]):
        causes.append("disposal 5-7: Pillow restores the previous canvas (any value >= 3), browsers treat"
                      " 5-7 as none")
    if any(len(im["gces"]) > 1 and (im["gces"][0][0] & 1) and not (im["gces"][-1][0] & 1) for im in ims[:i + 1]):
        causes.append("several GCEs before one image: Pillow keeps the transparent index of an earlier"
                      " GCE, browsers use the last GCE only")
    if g and any("index >= the colour table size" in n for n in g["notes"]):
        causes.append("index beyond the colour table: Pillow takes palette entry data past the table"
                      " (black or colour 0), browsers draw opaque black")
    return "; ".join(dict.fromkeys(causes))


def disagreements(giflib_results, pillow_results, files, base, out, title, extra=([], [])):
    rows = []
    for f in files:
        rel = f.relative_to(base).as_posix()
        g, p = giflib_results.get(rel), pillow_results.get(rel)
        if g is None or p is None:
            continue
        info = parse_gif(f.read_bytes())
        if g["status"] != "ok":
            if p["ok"]:
                rows.append(("gif", rel, "-", "error", "Pillow", "%d frames" % p["n"], clean(g["msg"])))
            continue
        if not p["ok"]:
            rows.append(("gif", rel, "-", "%d frames" % len(g["frames"]), "Pillow", "error", p["error"]))
            continue
        gf = [(fr["size"], fr["sha"]) for fr in g["frames"]]
        for i in range(max(len(gf), len(p["frames"]))):
            gv = gf[i] if i < len(gf) else ("-", "absent")
            pv = p["frames"][i] if i < len(p["frames"]) else ("-", "absent")
            if gv[1] == pv[1]:
                continue
            val = pv[1] if pv[0] == gv[0] or pv[1] == "absent" else "%s %s" % (pv[0], pv[1])
            rows.append(("gif", rel, i, gv[1], "Pillow", val, pillow_cause(rel, info, p, g, i)))
    n_files = len({r[1] for r in rows})
    n_pillow = len(rows)
    rows += extra[1]
    header = [
        title,
        "Informational: where Pillow's composited frames (Image.open; seek(i); convert('RGBA'); alpha 0 ->",
        "0,0,0,0) differ from the giflib manifest ('error' = refused, 'absent' = no such frame; a size is",
        "given when Pillow's canvas differs). Pillow does not follow the browser model; see README 'GIF'.",
        "Pillow rows: %d in %d files. Made by Conformance/scripts/make_gif_manifests.py." % (n_pillow, n_files),
    ]
    if extra[0]:
        header += ["Upstream reference renders in the corpus (rows only where they differ; pygif: see pygif.tsv):"]
        header += indented(extra[0])
    write_tsv(out, header, DISAGREEMENT_COLUMNS, rows)


# --------------------------------------------------------------------------
# pygif test suite: expected frames

def pygif_groups(info, force):
    """pygif's frame notion, as read from its .conf files: images are combined into one
    displayed frame until an image whose GCE has a non-zero delay (or the last image);
    with force-animation every image is a frame. -> list of last-image indices."""
    ims = info["images"]
    if force:
        return list(range(len(ims)))
    ends = []
    for k, im in enumerate(ims):
        delay = im["gces"][-1][1] if im["gces"] else 0
        if delay > 0 or k == len(ims) - 1:
            ends.append(k)
    return ends


PYGIF_WHY = {
    "no-data": "no image descriptor at all; pygif expects one transparent frame at the screen size"
               " (the background), giflib refuses the file (no image) and browsers have nothing to show",
    "images-combine": "4 images without GCE: pygif composes them into one displayed frame",
    "images-overlap": "2 images without GCE: pygif composes them into one displayed frame",
    "high-color": "4 images without GCE (one local palette each, >256 colours in total): pygif composes"
                  " them into one frame",
    "dispose-restore-previous": "the first image has no GCE (a background image): pygif composes it"
                                " into the first displayed frame",
    "animation-multi-image": "images without a GCE delay are composed with the next image that has one",
    "animation-multi-image-explicit-zero-delay": "images whose GCE delay is 0 are composed with the next"
                                                 " image that has a delay",
}

PYGIF_REFUSED = {
    "image-zero-width": "the 0x1 image descriptor is followed directly by the trailer (no LZW code size,"
                        " no data): giflib reads 0x3B as the code size and fails; browsers fail too"
                        " (Wuffs: bad literal width); pygif expects a transparent frame",
    "image-zero-height": "1x0 image descriptor followed by no data (as image-zero-width)",
    "image-zero-size": "0x0 image descriptor followed by no data (as image-zero-width)",
    "max-codes": "LZW minimum code size 11: giflib 5.2.1 refuses code sizes above 8, and so does"
                 " Chromium (Wuffs: bad literal width); Firefox accepts up to 12; pygif and Pillow decode it",
}

def pygif_manifest(root, giflib_results, out):
    suite = root / "gif" / "pygif-test-suite"
    if not (suite / "TESTS").is_file():
        print("pygif suite not found; skipping pygif.tsv")
        return
    from PIL import Image
    tests = [t.strip() for t in (suite / "TESTS").read_text().split() if t.strip()]
    rows, summary = [], {"frames": 0, "match_rows": 0, "agree": 0, "disagree": 0}
    mismatch_notes, nocrash_notes, refused_notes = [], [], []
    for t in tests:
        cp = configparser.ConfigParser(interpolation=None)
        cp.read(suite / (t + ".conf"))
        cf = cp["config"]
        gif_rel = "gif/pygif-test-suite/" + cf.get("input", t + ".gif").strip()
        data = (root / gif_rel).read_bytes()
        info = parse_gif(data)
        names = [x.strip() for x in cf.get("frames", "").split(",") if x.strip()]
        force = cf.get("force-animation", "no").strip() == "yes"
        n_img = len(info["images"])
        g = giflib_results.get(gif_rel)
        g_ok = g is not None and g["status"] == "ok"
        if not names:
            verdict = "giflib refuses the file" if not g_ok else "giflib decodes %d frame(s)" % len(g["frames"])
            rows.append((t, gif_rel, "-", "-", "none", "n/a", "-", verdict))
            nocrash_notes.append("%s (%d image descriptor(s)): %s" % (t, n_img, verdict))
            continue
        one_per_image = "yes" if len(names) == n_img else "no"
        if len(names) != n_img:
            why = PYGIF_WHY.get(t, "pygif expects %d frame(s), the file has %d image descriptor(s)"
                                % (len(names), n_img))
            mismatch_notes.append("%s: %d expected frame(s), %d image descriptor(s): %s" % (t, len(names), n_img, why))
        elif not g_ok:
            refused_notes.append("%s: %s" % (t, PYGIF_REFUSED.get(t, clean(g["msg"]))))
        ends = pygif_groups(info, force) if one_per_image == "no" else list(range(n_img))
        if len(ends) != len(names):
            ends = [None] * len(names)
        for j, name in enumerate(names):
            sec = cp[name]
            w, h = int(cf.get("width")), int(cf.get("height"))
            if sec.get("pixels"):
                raw = (suite / sec.get("pixels").strip()).read_bytes()
                if len(raw) != w * h * 4:
                    raise RuntimeError("%s: %s has %d bytes for %dx%d" % (t, sec.get("pixels"), len(raw), w, h))
            else:
                with Image.open(suite / sec.get("image").strip()) as im:
                    raw = im.convert("RGBA").tobytes()
                    w, h = im.size
            canon = bytearray(raw)
            for i in range(3, len(canon), 4):
                if canon[i] == 0:
                    canon[i - 3:i] = b"\0\0\0"
            value = sha(bytes(canon))
            k = ends[j]
            if not g_ok:
                verdict = "giflib refuses the file"
            elif k is None or k >= len(g["frames"]):
                verdict = "no corresponding giflib frame"
            else:
                gv = g["frames"][k]
                verdict = "agree" if (gv["sha"] == value and gv["size"] == "%dx%d" % (w, h)) else "disagree"
                if k != j:
                    verdict += " (giflib frame %d)" % k
            summary["frames"] += 1
            if one_per_image == "yes":
                summary["match_rows"] += 1
            if verdict.startswith("agree"):
                summary["agree"] += 1
            elif verdict.startswith("disagree"):
                summary["disagree"] += 1
            delay = sec.get("delay", "-").strip() if sec.get("delay") else "-"
            rows.append((t, gif_rel, j, "%dx%d" % (w, h), value, one_per_image, delay, verdict))
    header = [
        "pygif-test-suite expected frames (robert-ancell/pygif test-suite, CC-BY-SA-4.0), as canonical hashes.",
        "Paths are relative to the corpus root. One row per expected frame (from <test>.conf: 'pixels' raw",
        "  RGBA at the screen size, or 'image' PNG), alpha 0 -> 0,0,0,0, SHA-256. A test that lists no",
        "  frames has no expected output (pygif's generator calls such results 'nocrash': the decoder may",
        "  fail or decode, it must not crash); it gets one row with frame '-', sha256 'none', one_per_image",
        "  'n/a'. (The corpus PROVENANCE reads these tests as expected failures.)",
        "one_per_image: 'yes' when the number of expected frames equals the number of image descriptors,",
        "  i.e. pygif's frame notion is the browsers' (one frame per image); only those rows are comparable",
        "  frame by frame with gif.tsv. 'no' rows: pygif composes several images into one displayed frame",
        "  (images without a delay are drawn together with the next image that has one) or expects no",
        "  frame / a blank frame; the causes are listed below.",
        "delay: the expected delay in 1/100 s ('-' = not given). giflib: this row compared with gif.tsv",
        "  (for 'no' rows, with the giflib frame of the image that ends pygif's group, when that is defined).",
        "Made by Conformance/scripts/make_gif_manifests.py. Expected frames: %d (%d in one_per_image tests);"
        % (summary["frames"], summary["match_rows"]),
        "  agree with giflib: %d, disagree: %d, the rest: giflib refuses the file or no such frame."
        % (summary["agree"], summary["disagree"]),
        "Tests whose frame notion is not one frame per image (one_per_image 'no'):",
    ] + indented(mismatch_notes) + [
        "Tests with one frame per image where giflib refuses the file:",
    ] + indented(refused_notes) + [
        "Tests with no expected output ('nocrash'), and what giflib does:",
    ] + indented(nocrash_notes)
    write_tsv(out, header, ["test", "path", "frame", "size", "sha256", "one_per_image", "delay", "giflib"], rows)


# --------------------------------------------------------------------------
# Upstream reference renders in the corpus, compared with gif.tsv (informational)

def canonical_png(path):
    from PIL import Image
    with Image.open(path) as im:
        return "%dx%d" % im.size, sha(canonical_from_pillow(im))


def upstream_checks(root, giflib_results):
    """-> (summary lines, disagreement rows). peterdn frames/*.png (ImageMagick coalesce),
    image-rs reference/*.gif.png (first frame), giflib tests/*.rgb (gif2rgb: every image drawn on
    one screen, transparency and disposal ignored; compared with the last frame)."""
    import re
    rows, summary = [], []

    def frames_of(rel):
        g = giflib_results.get(rel)
        return [(fr["size"], fr["sha"]) for fr in g["frames"]] if g and g["status"] == "ok" else None

    checks = []
    for png in sorted((root / "gif" / "peterdn-gif-test-suite" / "frames").glob("*.png")):
        m = re.match(r"(.*)-(\d+)$", png.stem)
        name, k = (m.group(1), int(m.group(2))) if m else (png.stem, 0)
        checks.append(("peterdn", "gif/peterdn-gif-test-suite/%s.gif" % name, k, canonical_png(png), ""))
    ref = root / "gif" / "image-rs" / "reference"
    for png in sorted(ref.rglob("*.gif.png")):
        rel = png.relative_to(ref).as_posix()[:-4]
        checks.append(("image-rs", "gif/image-rs/images/" + rel, 0, canonical_png(png), ""))
    for rgbf in sorted((root / "gif" / "giflib" / "tests").glob("*.rgb")):
        rel = "gif/giflib/pic/%s.gif" % rgbf.stem
        fr = frames_of(rel)
        if not fr:
            continue
        rgb = rgbf.read_bytes()
        rgba = bytearray(len(rgb) // 3 * 4)
        rgba[0::4], rgba[1::4], rgba[2::4], rgba[3::4] = rgb[0::3], rgb[1::3], rgb[2::3], b"\xff" * (len(rgb) // 3)
        checks.append(("giflib-rgb", rel, len(fr) - 1, (fr[-1][0], sha(bytes(rgba))),
                       "gif2rgb draws every image on one screen filled with the background colour and"
                       " ignores transparency and disposal"))
    counts = {}
    for kind, rel, k, (size, value), why in checks:
        fr = frames_of(rel)
        c = counts.setdefault(kind, [0, 0])
        c[1] += 1
        mine = fr[k] if fr and k < len(fr) else None
        if mine == (size, value):
            c[0] += 1
            continue
        rows.append(("gif", rel, k, mine[1] if mine else "error", kind,
                     value if mine and mine[0] == size else "%s %s" % (size, value), why))
    for kind, (ok, n) in counts.items():
        summary.append("%s: %d of %d reference frames equal gif.tsv" % (kind, ok, n))
    return summary, rows


# --------------------------------------------------------------------------
# Corpus and fixtures

def gifs_under(d):
    return files_under(d, suffixes=(".gif",))


def do_corpus(giflib):
    root = corpus_with("gif")
    if root is None:
        return
    files = gifs_under(root / "gif")
    title = "GIF corpus manifest: every *.gif under gif/ (paths relative to the corpus root)."
    g = frame_manifest(giflib, files, root, MANIFESTS / "gif.tsv", title)
    p = info_manifest(files, root, MANIFESTS / "gif-info.tsv", title, g)
    pygif_manifest(root, g, MANIFESTS / "pygif.tsv")
    disagreements(g, p, files, root, MANIFESTS / "gif-disagreements.tsv",
                  "Reference disagreements for gif.tsv (paths relative to the corpus root).",
                  upstream_checks(root, g))
    def verdict(f):
        r = giflib.run(f)
        return r["status"], r["msg"] if r["status"] != "ok" else "%d frame(s)" % len(r["frames"])
    write_crashers(root, "gif", "giflib", verdict, [
        "Reference: %s DGifSlurp() via gif_composite.c, same policy as gif.tsv (ok = DGifSlurp succeeded"
        % giflib.version,
        "  and every frame was composited; 60 s and 4 GiB address-space limits).",
    ])


def do_fixtures(giflib):
    files = gifs_under(FIXTURES / "gif")
    if not files:
        print("no GIF fixtures in %s (run scripts/make_gif_fixtures.sh)" % (FIXTURES / "gif"))
        return
    title = "Generated GIF fixtures (paths relative to Conformance/); made by scripts/make_gif_fixtures.sh."
    g = frame_manifest(giflib, files, CONF, MANIFESTS / "fixtures-gif.tsv", title)
    p = info_manifest(files, CONF, MANIFESTS / "fixtures-gif-info.tsv", title, g)
    disagreements(g, p, files, CONF, MANIFESTS / "fixtures-gif-disagreements.tsv",
                  "Reference disagreements for fixtures-gif.tsv (paths relative to Conformance/).")


def main(argv):
    what = manifests_to_make(argv, __doc__)
    if what is None:
        return 2
    giflib = Giflib()
    try:
        if what in ("all", "corpus"):
            do_corpus(giflib)
        if what in ("all", "fixtures"):
            do_fixtures(giflib)
    finally:
        giflib.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
