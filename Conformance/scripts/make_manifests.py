#!/usr/bin/env python3
"""Make the ImageCodecs conformance manifests from REFERENCE decoders.

Never uses the project's own decoder. References:
  * PNG (static IDAT image): libspng, through scripts/spng_rgba.c (compiled into a
    temporary directory with `cc -O2 spng_rgba.c -lspng`).
  * APNG (composited frames, timing, loop count): Pillow (PngImagePlugin).
Second opinions, written to manifests/*disagreements.tsv only (informational):
  libpng (scripts/libpng_rgba.c) and Pillow for PNG, apngdis for APNG.

Usage (from anywhere):
  python3 Conformance/scripts/make_manifests.py            # corpus (if present) + fixtures
  python3 Conformance/scripts/make_manifests.py corpus     # corpus manifests only
  python3 Conformance/scripts/make_manifests.py fixtures   # fixture manifests only

Corpus root: $IMAGECODECS_CORPUS, else <project root>/../shared/corpus.

Manifest rows (TSV, '#' lines are comments):
  path <TAB> frame <TAB> WxH <TAB> sha256      one row per frame
  path <TAB> -     <TAB> -   <TAB> error       the reference refuses the file
The sha256 is over the canonical bytes: RGBA8, not premultiplied, rows top to
bottom, no padding, full canvas after compositing, alpha 0 -> 0,0,0,0,
16-bit samples -> v >> 8, no gamma / ICC / orientation.
"""

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

sys.dont_write_bytecode = True   # no __pycache__ beside the scripts
sys.path.insert(0, str(Path(__file__).resolve().parent))
from manifest_common import (  # noqa: E402
    CONF, DISAGREEMENT_COLUMNS, FIXTURES, FRAME_COLUMNS, MANIFESTS, SCRIPTS, CHelper, canonical_from_pillow,
    corpus_with, files_under, indented, library_version, limits, manifests_to_make, pillow_version, sha,
    write_crashers, write_tsv)


# --------------------------------------------------------------------------
# Small helpers

def fmt_ms(v):
    """Pillow durations are floats (num/den*1000); print them without noise."""
    if v is None:
        return "-"
    s = "%.6f" % float(v)
    s = s.rstrip("0").rstrip(".")
    return s if s != "-0" else "0"


def chunks(data):
    """Yield (type, data_offset, length) for each chunk; tolerant of damage."""
    pos = 8
    while pos + 8 <= len(data):
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        ctype = data[pos + 4:pos + 8]
        yield ctype, pos + 8, length
        if ctype == b"IEND":
            return
        pos += 12 + length


def png_facts(path):
    data = Path(path).read_bytes()
    facts = {"apng_chunks": set(), "depth": None, "ctype": None, "trns": False}
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return facts
    for ctype, off, length in chunks(data):
        if ctype == b"IHDR" and length >= 13 and off + 13 <= len(data):
            facts["depth"] = data[off + 8]
            facts["ctype"] = data[off + 9]
        if ctype == b"tRNS":
            facts["trns"] = True
        if ctype in (b"acTL", b"fcTL", b"fdAT"):
            facts["apng_chunks"].add(ctype.decode())
    return facts


# --------------------------------------------------------------------------
# libspng reference (static PNG image)

class Spng(CHelper):
    def __init__(self):
        super().__init__("spng_rgba", "spng")
        self.version = library_version("libspng", "libspng0", "spng.h",
                                       "SPNG_VERSION_MAJOR.SPNG_VERSION_MINOR.SPNG_VERSION_PATCH")

    def decode(self, path, image_only=False):
        """-> dict(status=ok|error|trailer-error|crash|timeout, size, sha, msg)"""
        p, msg, failed = self.execute(*(["--image-only"] if image_only else []), str(path))
        if failed:
            return failed
        if p.returncode in (0, 2):
            nl = p.stdout.index(b"\n")
            w, h = (int(x) for x in p.stdout[:nl].split())
            pix = p.stdout[nl + 1:]
            assert len(pix) == w * h * 4, (path, len(pix), w, h)
            return {"status": "ok" if p.returncode == 0 else "trailer-error",
                    "size": "%dx%d" % (w, h), "sha": sha(pix), "pixels": pix, "msg": msg}
        if p.returncode == 1:
            return {"status": "error", "msg": msg}
        raise RuntimeError("spng_rgba failed on %s: rc=%d %s" % (path, p.returncode, msg))


def png_manifest(spng, files, base, out, title):
    """One row per file (frame 0 = the IDAT image). A file counts as refused when
    libspng fails either decoding the image or reading the chunks after it up to
    IEND (see README: 'libspng behaviour')."""
    rows, notes = [], []
    counts = {"ok": 0, "error": 0}
    for f in files:
        rel = f.relative_to(base).as_posix()
        r = spng.decode(f)
        if r["status"] == "ok":
            rows.append((rel, 0, r["size"], r["sha"]))
            counts["ok"] += 1
        elif r["status"] == "trailer-error":
            rows.append((rel, "-", "-", "error"))
            counts["error"] += 1
            notes.append("%s: image decodes (0 %s %s) but the rest of the file fails: %s"
                         % (rel, r["size"], r["sha"], r["msg"]))
        else:
            rows.append((rel, "-", "-", "error"))
            counts["error"] += 1
            notes.append("%s: %s" % (rel, r["msg"]))
    header = [
        title,
        "Reference: %s via Conformance/scripts/spng_rgba.c (SPNG_DECODE_TRNS, RGBA8 or RGBA16>>8,"
        % spng.version,
        "  default CRC policy, then spng_decode_chunks() up to IEND). Made by Conformance/scripts/make_manifests.py.",
        "Canonical hash: RGBA8 unpremultiplied, alpha 0 -> 0,0,0,0, 16-bit -> v>>8, no gamma/ICC.",
        "Rows: %d files, %d decoded, %d error." % (len(files), counts["ok"], counts["error"]),
        "Error details (informational):",
    ] + indented(notes)
    write_tsv(out, header, FRAME_COLUMNS, rows)
    return rows


# --------------------------------------------------------------------------
# Pillow reference (APNG composited frames)

DISPOSAL = {0: "none", 1: "background", 2: "previous"}
BLEND = {0: "source", 1: "over"}


def pillow_decode(path):
    """Pillow's composited frames of an (A)PNG.

    -> dict(ok, frames=[(size, sha, duration, disposal, blend, bytes)], loop, notes, error, ...)

    Each frame i is taken from a freshly opened image with seek(i) (Pillow composites
    frames 0..i-1 while seeking, without loading them), then convert('RGBA').
    Iterating seek(0), load, seek(1), load, ... on one Image object is NOT used: in
    Pillow 13 that order makes DISPOSE_OP_PREVIOUS after a BLEND_OP_OVER frame restore
    the wrong canvas (PngImageFile.load_end aliases self.im and self._prev_im).
    """
    from PIL import Image
    facts = png_facts(path)
    res = {"ok": False, "frames": [], "loop": None, "notes": [], "error": None,
           "default_image": False, "mode": None, "apng": False}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with Image.open(path) as im:
                res["mode"] = im.mode
                res["trns"] = "transparency" in im.info
                trns_value = im.info.get("transparency")
                # acTL accepted before the first IDAT (Pillow's private PngStream state).
                res["apng"] = im.png is not None and im.png.im_n_frames is not None
                n = getattr(im, "n_frames", 1)
                default_image = bool(getattr(im, "default_image", False))
                res["default_image"] = default_image
            if facts["depth"] == 16 and facts["ctype"] == 2 and res["trns"]:
                res["notes"].append("16-bit RGB+tRNS: Pillow matches tRNS on the 8-bit high bytes")
            frames = []
            for i in range(n):
                with Image.open(path) as im:
                    im.seek(i)
                    data = canonical_from_pillow(im)
                    frames.append(("%dx%d" % im.size, sha(data), im.info.get("duration"),
                                   im.info.get("disposal"), im.info.get("blend"), data))
                    loop = im.info.get("loop")
            res["loop"] = loop
            if default_image and len(frames) > 1:
                # IDAT default image is not part of the animation: Pillow exposes it as
                # frame 0 and counts it in n_frames; the manifest lists animation frames only.
                frames = frames[1:]
                res["notes"].append("default image not part of the animation: Pillow frame 0 dropped")
            res["frames"] = frames
            res["ok"] = True
        except Exception as e:  # noqa: BLE001 - any refusal is an 'error' row
            res["error"] = "%s: %s" % (type(e).__name__, e)
    for w in caught:
        note = "warning: %s" % w.message
        if note not in res["notes"]:
            res["notes"].append(note)
    if res["ok"] and not res["apng"] and facts["apng_chunks"]:
        res["notes"].append("Pillow treats the file as a plain PNG (no acTL accepted before IDAT)")
    # Pillow compositing quirks worth knowing when our decoder disagrees.
    if res["ok"] and len(res["frames"]) > 1:
        disp = [f[3] for f in res["frames"]]
        blends = [f[4] for f in res["frames"]]
        zero_is_clear = (trns_value == 0 or trns_value == (0, 0, 0) or
                         (isinstance(trns_value, bytes) and trns_value[:1] == b"\0"))
        if res["mode"] not in ("RGBA", "LA") and 1 in disp[:-1] and not zero_is_clear:
            res["notes"].append("quirk: dispose BACKGROUND in mode %s fills with 0 (palette index 0 / black),"
                                " not transparent black" % res["mode"])
        if res["mode"] in ("L", "1", "I;16") and res.get("trns") and 1 in blends[1:]:
            res["notes"].append("quirk: blend OVER in mode %s ignores tRNS while compositing" % res["mode"])
    return res


def apng_manifests(files, base, out_frames, out_info, title):
    """Write the frame manifest and the info manifest; return {rel: pillow_decode result}."""
    rows, info_rows, notes, results = [], [], [], {}
    n_err = 0
    for f in files:
        rel = f.relative_to(base).as_posix()
        r = pillow_decode(f)
        results[rel] = r
        if not r["ok"]:
            rows.append((rel, "-", "-", "error"))
            n_err += 1
            info_rows.append((rel, "-", "-", "-", "-", "-",
                              "; ".join(["error: " + r["error"]] + r["notes"])))
            notes.append("%s: %s" % (rel, r["error"]))
            continue
        for i, fr in enumerate(r["frames"]):
            rows.append((rel, i, fr[0], fr[1]))
        nt = ["mode=%s" % r["mode"]] + r["notes"]
        if r["apng"]:
            loop = r["loop"] if r["loop"] is not None else 1
            durations = ",".join(fmt_ms(fr[2]) for fr in r["frames"])
            disposal = ",".join(DISPOSAL.get(fr[3], "-") for fr in r["frames"])
            blend = ",".join(BLEND.get(fr[4], "-") for fr in r["frames"])
        else:
            # Not an accepted APNG: a plain PNG says nothing about looping or timing.
            loop, durations, disposal, blend = 1, "-", "-", "-"
            if r["loop"] is not None:
                nt.append("Pillow still reports info['loop']=%s from the ignored acTL" % r["loop"])
            if r["frames"] and r["frames"][0][2] is not None:
                nt.append("Pillow still reports info['duration']=%s from an ignored fcTL" % fmt_ms(r["frames"][0][2]))
        info_rows.append((rel, len(r["frames"]), loop, durations, disposal, blend, "; ".join(nt)))
    ver = pillow_version()
    header = [
        title,
        "Reference: %s. Frame i: Image.open(path); seek(i); convert('RGBA') (a fresh Image per frame;" % ver,
        "  16-bit grey would use v>>8 done by the script); canonical bytes: alpha 0 -> 0,0,0,0.",
        "  When Pillow's default image (IDAT before the first fcTL) is not part of the animation,",
        "  Pillow's frame 0 is dropped: frames here are animation frames only.",
        "  Pillow's blend OVER differs from the APNG spec for partly transparent pixels; see",
        "  the disagreements manifest (apngdis) and Conformance/README.md.",
        "Made by Conformance/scripts/make_manifests.py. Files: %d, frame rows: %d, error files: %d."
        % (len(files), len(rows) - n_err, n_err),
        "Error details (informational):",
    ] + indented(notes)
    write_tsv(out_frames, header, FRAME_COLUMNS, rows)
    info_header = [
        title,
        "Timing and loop count per file.",
        "Reference: %s (values after Image.open(path); seek(i)). frameCount = rows in the frame" % ver,
        "  manifest. loopCount = info['loop'] (acTL num_plays, 0 = forever), 1 when absent or when Pillow",
        "  does not accept the acTL (then durations/disposal/blend are '-': a plain PNG).",
        "  durations: info['duration'] per frame in ms (delay_num/delay_den*1000, delay_den 0 read as 100),",
        "  printed with up to 6 decimals. disposal/blend: info['disposal'] (none/background/previous) and",
        "  info['blend'] (source/over) per frame, as in each frame's fcTL.",
        "  notes: Pillow mode, dropped default image, Pillow warnings, known Pillow compositing quirks.",
    ]
    write_tsv(out_info, info_header,
              ["path", "frameCount", "loopCount", "durations", "disposal", "blend", "notes"], info_rows)
    return results


# --------------------------------------------------------------------------
# Second opinions (informational): libpng and Pillow for PNG, apngdis for APNG

class Libpng:
    def __init__(self, tmp):
        self.exe = None
        if not Path("/usr/include/png.h").exists() and not shutil.which("libpng-config"):
            return
        exe = os.path.join(tmp, "libpng_rgba")
        src = SCRIPTS / "libpng_rgba.c"
        if subprocess.run(["cc", "-O2", "-o", exe, str(src), "-lpng"]).returncode == 0:
            self.exe = exe
            v = subprocess.run(["sh", "-c", "libpng-config --version 2>/dev/null || true"],
                               capture_output=True, text=True).stdout.strip()
            self.version = "libpng %s" % (v or "?")

    def decode(self, path):
        p = subprocess.run([self.exe, str(path)], capture_output=True, timeout=60, preexec_fn=limits)
        if p.returncode != 0:
            return "error"
        nl = p.stdout.index(b"\n")
        return sha(p.stdout[nl + 1:])


def pillow_static(path):
    """Pillow's decode of the IDAT image (frame 0 of a static PNG)."""
    from PIL import Image
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(path) as im:
                im.load()
                return sha(canonical_from_pillow(im))
    except Exception:  # noqa: BLE001
        return "error"


def apngdis_frames(path):
    """Composited frames from apngdis (APNG Disassembler), as canonical sha256 list,
    or None if apngdis wrote nothing. apngdis writes the default image as its first
    frame even when it is not part of the animation."""
    from PIL import Image
    with tempfile.TemporaryDirectory() as td:
        src = Path(td) / "in.png"
        shutil.copyfile(path, src)   # apngdis writes its frames next to its input
        subprocess.run(["apngdis", src.name], cwd=td, capture_output=True, timeout=120)
        outs = sorted(Path(td).glob("apngframe*.png"), key=lambda p: int(p.stem[len("apngframe"):]))
        res = []
        for o in outs:
            with Image.open(o) as im:
                res.append(("%dx%d" % im.size, sha(canonical_from_pillow(im))))
        return res or None


KNOWN_CAUSES = {
    "pngsuite/tbbn0g04.png": "Pillow bug: tRNS grey value not scaled for a 4-bit grey image (libspng and libpng agree)",
    "png-extra/image-rs/images/transparency/tbbn0g04.png": "same file as pngsuite/tbbn0g04.png",
    "png-extra/pillow/1_trns.png": "tRNS grey 0x00ff is out of range for 1-bit grey: libpng masks it to the bit"
                                   " depth (-> 1 = white transparent), Pillow uses 'nonzero = white'; libspng"
                                   " compares the unmasked value and makes nothing transparent",
    "pngsuite/xcsn0g01.png": "IDAT CRC error: Pillow does not check CRCs after the first IDAT",
    "png-extra/image-png/bugfixes/x_interlaced_chck.png": "IDAT CRC error: Pillow does not check CRCs after the first IDAT",
    "png-extra/pillow/png_decompression_dos.png": "Pillow's MAX_TEXT_CHUNK guard refuses the zTXt bomb; libspng/libpng skip it",
    "png-extra/image-png/bugfixes/cicp_pq.png": "Pillow checks CRCs of all chunks before IDAT (cLLI CRC is bad);"
                                                " libspng/libpng discard an ancillary chunk with a bad CRC",
    "png-extra/image-png/bugfixes/issue_430.png": "Pillow: bad iCCP CRC is fatal before IDAT; libspng/libpng discard the chunk",
    "png-extra/pillow/unknown_compression_method.png": "Pillow: iCCP compression method 1 is fatal; libspng/libpng discard the chunk",
}


def auto_cause(path, other):
    facts = png_facts(path)
    if other == "Pillow" and facts["trns"] and facts["ctype"] == 2 and facts["depth"] == 16:
        return "Pillow compares a 16-bit RGB tRNS key with its 8-bit samples (no pixel becomes transparent)"
    if other == "Pillow" and facts["trns"] and facts["ctype"] == 0 and facts["depth"] in (2, 4):
        return "Pillow does not scale the tRNS grey key of a 2/4-bit grey image"
    return ""


def disagreements(png_rows, png_base, apng_results, apng_base, out, title, libpng):
    """Compare the manifest values with the second opinions; write one row per disagreement."""
    rows = []
    have_apngdis = shutil.which("apngdis") is not None
    for rel, frame, size, value in png_rows:
        f = png_base / rel
        others = []
        if libpng.exe:
            others.append(("libpng", libpng.decode(f)))
        others.append(("Pillow", pillow_static(f)))
        for name, v in others:
            if v != value:
                rows.append(("png", rel, frame, value, name, v, KNOWN_CAUSES.get(rel) or auto_cause(f, name)))
    if have_apngdis:
        for rel, r in apng_results.items():
            ad = apngdis_frames(apng_base / rel)
            pf = [(fr[0], fr[1]) for fr in r["frames"]] if r["ok"] else None
            if ad and pf is not None and r["default_image"] and len(ad) > len(pf):
                ad = ad[1:]
            if pf is None:
                if ad:
                    rows.append(("apng", rel, "-", "error", "apngdis", "%d frames" % len(ad), r["error"]))
                continue
            if not r["apng"]:
                continue  # Pillow decodes it as a plain PNG; apngdis still plays fcTL/fdAT frames
            if ad is None:
                rows.append(("apng", rel, "-", "%d frames" % len(pf), "apngdis", "error", ""))
                continue
            quirks = "; ".join(n for n in r["notes"] if n.startswith("quirk"))
            for i in range(max(len(pf), len(ad))):
                pv = pf[i][1] if i < len(pf) else "absent"
                av = ad[i][1] if i < len(ad) else "absent"
                if pv == av:
                    continue
                if "absent" in (pv, av):
                    note = "frame count differs: Pillow stops at acTL num_frames, apngdis plays every fcTL"
                elif quirks:
                    note = quirks
                elif 1 in [fr[4] for fr in r["frames"][:i + 1]]:
                    note = ("Pillow blend OVER: partly transparent source pixels are mixed linearly in all"
                            " four channels (alpha too) or, in P mode, replace the pixel; APNG 'over' differs")
                else:
                    note = ""
                rows.append(("apng", rel, i, pv, "apngdis", av, note))
    header = [
        title,
        "Informational: where a second decoder disagrees with the manifest value (sha256, 'error',",
        "'absent' = no such frame). PNG: manifest = libspng; others = %s and Pillow (static image)."
        % (libpng.version if libpng.exe else "libpng (not available)"),
        "APNG: manifest = Pillow; other = apngdis (APNG Disassembler%s), which composites per the APNG"
        % ("" if have_apngdis else ", NOT AVAILABLE - no APNG rows"),
        "  spec; files Pillow treats as plain PNGs are skipped. Made by scripts/make_manifests.py.",
    ]
    write_tsv(out, header, DISAGREEMENT_COLUMNS, rows)


# --------------------------------------------------------------------------
# Corpus and fixtures

def pngs_under(*dirs):
    return files_under(*dirs, suffixes=(".png",), pattern="*.png")


def apng_files(root):
    cands = files_under(root / "apng", suffixes=(".png", ".apng"))
    cands += [p for p in pngs_under(root / "png-extra") if "acTL" in png_facts(p)["apng_chunks"]]
    # APNG test files: any acTL/fcTL/fdAT chunk (so chunk_no_actl.png, fcTL+fdAT without
    # acTL, is included as the static image it is). Reference frame renders are plain PNGs.
    return [p for p in cands if png_facts(p)["apng_chunks"]]


def do_corpus(spng, libpng):
    root = corpus_with("pngsuite")
    if root is None:
        return
    png_rows = png_manifest(spng, pngs_under(root / "pngsuite", root / "png-extra"), root,
                            MANIFESTS / "png.tsv",
                            "PNG corpus manifest: every *.png under pngsuite/ and png-extra/"
                            " (paths relative to the corpus root).")
    apng = apng_manifests(apng_files(root), root, MANIFESTS / "apng.tsv", MANIFESTS / "apng-info.tsv",
                          "APNG corpus manifest: APNG test files under apng/ (any acTL/fcTL/fdAT) and the"
                          " APNGs in png-extra/ (paths relative to the corpus root).")
    # crashers: informational libspng verdicts; the project's test only requires no crash/hang.
    def verdict(f):
        r = spng.decode(f)
        verdict = "ok" if r["status"] == "ok" else "error"
        if r["status"] in ("crash", "timeout"):
            verdict = r["status"]
        detail = r.get("msg", "")
        if r["status"] == "trailer-error":
            detail = "image decodes; " + detail
        return verdict, detail
    write_crashers(root, "png", "libspng", verdict, [
        "Reference: %s via spng_rgba.c, same policy as png.tsv (ok = image and trailing chunks decoded)."
        % spng.version,
    ])
    disagreements(png_rows, root, apng, root, MANIFESTS / "disagreements.tsv",
                  "Reference disagreements for png.tsv and apng.tsv (paths relative to the corpus root).", libpng)


def do_fixtures(spng, libpng):
    png_dir, apng_dir = FIXTURES / "png", FIXTURES / "apng"
    pngs = pngs_under(png_dir)
    png_rows, apng = [], {}
    if pngs:
        png_rows = png_manifest(spng, pngs, CONF, MANIFESTS / "fixtures-png.tsv",
                                "Generated PNG fixtures (paths relative to Conformance/);"
                                " made by scripts/make_fixtures.sh.")
    else:
        print("no PNG fixtures in %s (run scripts/make_fixtures.sh)" % png_dir)
    apngs = pngs_under(apng_dir)
    if apngs:
        apng = apng_manifests(apngs, CONF, MANIFESTS / "fixtures-apng.tsv", MANIFESTS / "fixtures-apng-info.tsv",
                              "Generated APNG fixtures (paths relative to Conformance/);"
                              " made by scripts/make_fixtures.sh.")
    else:
        print("no APNG fixtures in %s" % apng_dir)
    if pngs or apngs:
        disagreements(png_rows, CONF, apng, CONF, MANIFESTS / "fixtures-disagreements.tsv",
                      "Reference disagreements for fixtures-png.tsv and fixtures-apng.tsv"
                      " (paths relative to Conformance/).", libpng)


def main(argv):
    what = manifests_to_make(argv, __doc__)
    if what is None:
        return 2
    spng = Spng()
    try:
        libpng = Libpng(spng.tmp)
        if what in ("all", "corpus"):
            do_corpus(spng, libpng)
        if what in ("all", "fixtures"):
            do_fixtures(spng, libpng)
    finally:
        spng.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
