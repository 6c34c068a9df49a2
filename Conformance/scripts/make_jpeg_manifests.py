#!/usr/bin/env python3
"""Make the ImageCodecs JPEG conformance manifests from REFERENCE decoders.

Never uses the project's own decoder. References:
  * Pixels: libjpeg-turbo's `djpeg -dct int -pnm FILE` (ISLOW IDCT, fancy upsampling: the
    library defaults apart from the IDCT), whose P5/P6 output becomes canonical RGBA8 (grey ->
    R=G=B; alpha 255). djpeg 2.1.5 also writes CMYK and YCCK files as P6: its PPM writer
    (wrppm.c put_cmyk -> cmyk.h cmyk_to_rgb) computes R = C*K/255, G = M*K/255, B = Y*K/255,
    rounded, on the samples as stored (for Adobe files: inverted ink). Pillow's
    convert('RGB') is compared with every decoded row: the header lists where it differs, and
    each CMYK row's note says whether it agrees.
  * Orientation, size, progressive flag, ICC size: Pillow (JpegImagePlugin), `*jpeg-info.tsv`.
Every corpus file's PNM is also checked against the corpus' own GENERATED-djpeg-md5.tsv (the
md5 of the same djpeg command's output when the corpus was assembled); the header of jpeg.tsv
gives the counts and every disagreement.

Usage (from anywhere):
  python3 Conformance/scripts/make_jpeg_manifests.py            # corpus (if present) + fixtures
  python3 Conformance/scripts/make_jpeg_manifests.py corpus     # jpeg.tsv, jpeg-info.tsv
  python3 Conformance/scripts/make_jpeg_manifests.py fixtures   # fixtures-jpeg.tsv, fixtures-jpeg-info.tsv

Corpus root: $IMAGECODECS_CORPUS, else <project root>/../shared/corpus. The corpus manifests
cover every *.jpg, *.jpeg and *.mpo under jpeg/ (an MPO's first image is its JPEG).

Manifest rows (TSV, '#' lines are comments):
  path <TAB> 0 <TAB> WxH <TAB> sha256 <TAB> reference <TAB> note
  path <TAB> - <TAB> -   <TAB> error  <TAB> djpeg     <TAB> djpeg's message
reference: `djpeg` (exit 0), `djpeg-warning` (exit 2: libjpeg-turbo warned, filled what was
missing and wrote the whole image; the note has the warning), `djpeg-cmyk` (a 4-component file
converted by djpeg's PPM writer as above). The first four columns are those of every other
manifest; readers that know only them still work.

The marker walk below (`parse_jpeg`) is also used by make_jpeg_fixtures.sh to check what it
wrote.
"""

import hashlib
import subprocess
import sys
import warnings
from pathlib import Path

sys.dont_write_bytecode = True   # no __pycache__ beside the scripts
sys.path.insert(0, str(Path(__file__).resolve().parent))
from manifest_common import (  # noqa: E402
    CONF, FIXTURES, FRAME_COLUMNS, MANIFESTS, clean, corpus_with, files_under, indented, limits,
    manifests_to_make, pillow_version, sha, write_tsv)

DJPEG = "djpeg"
DJPEG_ARGS = ["-dct", "int", "-pnm"]
COLUMNS = FRAME_COLUMNS + ["reference", "note"]
INFO_COLUMNS = ["path", "orientation", "width", "height", "progressive", "iccBytes", "notes"]


# --------------------------------------------------------------------------
# Marker walk (ITU T.81 Annex B). No entropy decoding: used for the notes, the CMYK rows and
# the fixture checks.

SOF_NAMES = {
    0xC0: "baseline", 0xC1: "extended-huffman", 0xC2: "progressive-huffman", 0xC3: "lossless-huffman",
    0xC5: "differential-sequential", 0xC6: "differential-progressive", 0xC7: "differential-lossless",
    0xC9: "extended-arith", 0xCA: "progressive-arith", 0xCB: "lossless-arith",
    0xCD: "differential-sequential-arith", 0xCE: "differential-progressive-arith",
    0xCF: "differential-lossless-arith", 0xF7: "jpeg-ls",
}


def parse_jpeg(data):
    """Walks the marker segments of a JPEG file.

    -> dict(sof (marker code or None), precision, width, height,
            components=[(id, h, v, tq)], scans=[[(component id, td, ta)], Ss, Se, Ah, Al],
            dqt=[(table id, precision 0|1)], dri=[interval, ...], app=[(n, identifier bytes)],
            exif=bytes or None, icc_chunks=[(seq, count, length)], adobe_transform (or None),
            jfif (bool), junk (bytes skipped where a marker should be),
            end='eoi'|'eof'|'not a JPEG'|'bad marker length at N')
    """
    res = {"sof": None, "precision": None, "width": None, "height": None, "components": [],
           "scans": [], "dqt": [], "dri": [], "app": [], "exif": None, "icc_chunks": [],
           "adobe_transform": None, "jfif": False, "junk": 0, "end": "eof"}
    n = len(data)
    if n < 2 or data[0] != 0xFF or data[1] != 0xD8:
        res["end"] = "not a JPEG"
        return res
    pos, in_scan = 2, False
    while pos < n:
        if in_scan:
            # entropy-coded data: up to the first marker that is not a stuffed 0 or a RSTm
            while True:
                pos = data.find(b"\xff", pos)
                if pos < 0:
                    return res
                while pos + 1 < n and data[pos + 1] == 0xFF:   # fill bytes
                    pos += 1
                if pos + 1 >= n:
                    return res
                if data[pos + 1] != 0x00 and not 0xD0 <= data[pos + 1] <= 0xD7:
                    break
                pos += 2
            in_scan = False
        if data[pos] != 0xFF:
            # junk where a marker should be: skipped up to the next 0xFF, as libjpeg does (with a warning)
            nxt = data.find(b"\xff", pos)
            res["junk"] += (nxt if nxt >= 0 else n) - pos
            if nxt < 0:
                break
            pos = nxt
        while pos < n and data[pos] == 0xFF:   # fill bytes
            pos += 1
        if pos >= n:
            break
        m = data[pos]
        pos += 1
        if m == 0xD9:
            res["end"] = "eoi"
            return res
        if m == 0xD8 or 0xD0 <= m <= 0xD7 or m == 0x01:
            continue
        if pos + 2 > n:
            break
        length = data[pos] << 8 | data[pos + 1]
        seg = data[pos + 2:pos + length]
        if length < 2:
            res["end"] = "bad marker length at %d" % pos
            return res
        if m in SOF_NAMES and len(seg) >= 6:
            res["sof"], res["precision"] = m, seg[0]
            res["height"], res["width"] = seg[1] << 8 | seg[2], seg[3] << 8 | seg[4]
            res["components"] = [(seg[6 + 3 * i], seg[7 + 3 * i] >> 4, seg[7 + 3 * i] & 15, seg[8 + 3 * i])
                                 for i in range(seg[5]) if 8 + 3 * i < len(seg)]
        elif m == 0xDA and len(seg) >= 1:
            k = seg[0]
            comps = [(seg[1 + 2 * i], seg[2 + 2 * i] >> 4, seg[2 + 2 * i] & 15) for i in range(k)
                     if 2 + 2 * i < len(seg)]
            tail = seg[1 + 2 * k:4 + 2 * k]
            if len(tail) == 3:
                res["scans"].append([comps, tail[0], tail[1], tail[2] >> 4, tail[2] & 15])
            in_scan = True
        elif m == 0xDB:
            i = 0
            while i < len(seg):
                pq, tq = seg[i] >> 4, seg[i] & 15
                res["dqt"].append((tq, pq))
                i += 1 + (128 if pq else 64)
        elif m == 0xDD and len(seg) >= 2:
            res["dri"].append(seg[0] << 8 | seg[1])
        elif 0xE0 <= m <= 0xEF:
            ident = bytes(seg[:seg.find(b"\0")]) if b"\0" in seg[:32] else bytes(seg[:12])
            res["app"].append((m - 0xE0, ident))
            if m == 0xE0 and seg[:5] == b"JFIF\0":
                res["jfif"] = True
            elif m == 0xE1 and seg[:6] == b"Exif\0\0" and res["exif"] is None:
                res["exif"] = bytes(seg[6:])
            elif m == 0xE2 and seg[:12] == b"ICC_PROFILE\0" and len(seg) >= 14:
                res["icc_chunks"].append((seg[12], seg[13], len(seg) - 14))
            elif m == 0xEE and seg[:5] == b"Adobe" and len(seg) >= 12:
                res["adobe_transform"] = seg[11]
        pos += length
    return res


def sampling(info):
    """'2x2,1x1,1x1' for the components of the frame."""
    return ",".join("%dx%d" % (h, v) for _, h, v, _ in info["components"])


def exif_orientation(exif):
    """The Orientation tag (274) of IFD0 of a TIFF structure, or None."""
    if not exif or len(exif) < 8 or exif[:2] not in (b"II", b"MM"):
        return None
    end = "little" if exif[:2] == b"II" else "big"
    u16 = lambda o: int.from_bytes(exif[o:o + 2], end)  # noqa: E731
    ifd = int.from_bytes(exif[4:8], end)
    if ifd + 2 > len(exif):
        return None
    for i in range(u16(ifd)):
        e = ifd + 2 + 12 * i
        if e + 12 <= len(exif) and u16(e) == 274:
            return u16(e + 8)
    return None


def incomplete_components(info):
    """Component ids of a progressive file whose coefficients the scans do not all bring to full
    precision (some coefficient never sent, or its last scan has Al > 0). libjpeg smooths such
    blocks (jdcoefct.c, decompress_smooth_data) when it writes the image."""
    if info["sof"] not in (0xC2, 0xCA):
        return []
    al = {c[0]: [None] * 64 for c in info["components"]}
    for comps, ss, se, _ah, a in info["scans"]:
        for cid, _, _ in comps:
            for k in range(ss, min(se, 63) + 1):
                if cid in al:
                    al[cid][k] = a
    return [cid for cid, v in al.items() if any(x != 0 for x in v)]


def describe(info):
    """A short structural summary for notes: 'progressive-huffman 8-bit 3 comp 2x2,1x1,1x1 ...'."""
    if info["sof"] is None:
        return "no SOF (%s)" % info["end"]
    parts = ["%s %d-bit" % (SOF_NAMES[info["sof"]], info["precision"]),
             "%d comp %s" % (len(info["components"]), sampling(info))]
    if info["adobe_transform"] is not None:
        parts.append("Adobe transform %d" % info["adobe_transform"])
    return " ".join(parts)


# --------------------------------------------------------------------------
# djpeg reference

def djpeg_version():
    v = subprocess.run([DJPEG, "-version"], capture_output=True, text=True)
    text = (v.stderr or v.stdout).strip().splitlines()[0]
    pkg = subprocess.run(["sh", "-c", "dpkg-query -W -f='${Version}' libjpeg-turbo-progs 2>/dev/null || true"],
                         capture_output=True, text=True).stdout.strip()
    return "%s (Debian package libjpeg-turbo-progs %s)" % (text, pkg or "unknown")


def parse_pnm(out):
    """djpeg's P5/P6 output (maxval 255) -> (width, height, channels, samples) or None."""
    fields, pos = [], 0
    while len(fields) < 4:
        while pos < len(out) and out[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while pos < len(out) and not out[pos:pos + 1].isspace():
            pos += 1
        if start == pos:
            return None
        fields.append(out[start:pos])
    pos += 1   # the single whitespace after maxval
    magic, w, h, maxval = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
    channels = {b"P5": 1, b"P6": 3}.get(magic)
    if channels is None or maxval != 255 or len(out) - pos != w * h * channels:
        return None
    return w, h, channels, out[pos:]


def canonical_rgba(channels, samples):
    """Grey or RGB samples -> RGBA8 with alpha 255 (opaque: nothing to zero)."""
    n = len(samples) // channels
    out = bytearray(n * 4)
    if channels == 1:
        out[0::4] = out[1::4] = out[2::4] = samples
    else:
        out[0::4], out[1::4], out[2::4] = samples[0::3], samples[1::3], samples[2::3]
    out[3::4] = b"\xff" * n
    return bytes(out)


def djpeg(path, scale=None):
    """-> dict(status ok|warning|error|timeout|crash, size, sha, md5 (of the PNM), pnm ('P6 WxH'), msg)
    `scale`: djpeg's -scale M/N (libjpeg's scaled IDCT), else full size."""
    args = [*DJPEG_ARGS, "-scale", scale] if scale else DJPEG_ARGS
    try:
        p = subprocess.run([DJPEG, *args, str(path)], capture_output=True, timeout=60, preexec_fn=limits)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "msg": "timeout after 60 s"}
    msg = clean(p.stderr.decode("utf-8", "replace").strip())
    if p.returncode < 0:
        return {"status": "crash", "msg": "signal %d" % -p.returncode}
    if p.returncode not in (0, 2):
        return {"status": "error", "msg": msg or "exit %d" % p.returncode}
    pnm = parse_pnm(p.stdout)
    if pnm is None:
        return {"status": "error", "msg": "exit %d without a whole P5/P6 image: %s" % (p.returncode, msg)}
    w, h, channels, samples = pnm
    return {"status": "ok" if p.returncode == 0 else "warning", "msg": msg,
            "size": "%dx%d" % (w, h), "sha": sha(canonical_rgba(channels, samples)),
            "md5": hashlib.md5(p.stdout).hexdigest(), "pnm": "%s %dx%d" % ("P5" if channels == 1 else "P6", w, h)}


# --------------------------------------------------------------------------
# Pillow (a second opinion on the pixels, in the header and the CMYK rows' notes; the info manifests)

def pillow_rgb_sha(path):
    """-> (size, sha) of Pillow's convert('RGB') with alpha 255, or (None, error text)."""
    from PIL import Image
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(path) as im:
                rgb = im.convert("RGB")
                return "%dx%d" % rgb.size, sha(canonical_rgba(3, rgb.tobytes()))
    except Exception as e:  # noqa: BLE001 - any refusal
        return None, clean("%s: %s" % (type(e).__name__, e)).replace(str(path), path.name)


def pillow_info(path):
    """-> dict(ok, orientation, width, height, progressive, icc, mode, error, warnings)"""
    from PIL import Image
    res = {"ok": False, "error": None, "warnings": []}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with Image.open(path) as im:
                res.update(width=im.size[0], height=im.size[1], mode=im.mode, format=im.format,
                           progressive=1 if im.info.get("progressive") else 0,
                           icc=len(im.info.get("icc_profile") or b""))
                try:
                    res["orientation"] = im.getexif().get(274, 1)
                except Exception as e:  # noqa: BLE001 - a broken EXIF block: Pillow's default
                    res["orientation"] = 1
                    res["warnings"].append(clean("getexif: %s: %s" % (type(e).__name__, e)))
                res["ok"] = True
        except Exception as e:  # noqa: BLE001 - any refusal is an error
            res["error"] = clean("%s: %s" % (type(e).__name__, e)).replace(str(path), path.name)
    res["warnings"] += [clean(str(w.message)).replace(str(path), path.name) for w in caught]
    return res


# --------------------------------------------------------------------------
# Manifests

def read_generated_md5(root):
    """corpus jpeg/GENERATED-djpeg-md5.tsv -> {path under jpeg/: (md5 or 'ERR', pnm column)}"""
    f = root / "jpeg" / "GENERATED-djpeg-md5.tsv"
    out = {}
    if not f.is_file():
        return None
    for line in f.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("file\t"):
            continue
        c = line.split("\t")
        if len(c) >= 3:
            out[c[0]] = (c[1], c[2])
    return out


def mpo_offsets(data):
    """Absolute offsets of every image an MPO's MP index lists (CIPA DC-007-2009 5.2: APP2
    'MPF\\0' in the first image, a TIFF-structured IFD, tag 0xB001 NumberOfImages, tag 0xB002 MP
    Entry = 16 bytes per image: attribute, size, offset from the TIFF header, 2 dependencies),
    or [] when the file has no index of more than one image. Written from the spec; the count
    is checked against Pillow's n_frames by the caller."""
    import struct
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker == 0xDA or marker == 0xD9:
            return []
        seg = data[i + 4:i + 2 + length]
        if marker == 0xE2 and seg[:4] == b"MPF\0":
            tiff = seg[4:]
            e = ">" if tiff[:2] == b"MM" else "<"
            ifd = struct.unpack(e + "I", tiff[4:8])[0]
            count = struct.unpack(e + "H", tiff[ifd:ifd + 2])[0]
            images, entries = 0, None
            for k in range(count):
                tag, _, n, value = struct.unpack(e + "HHII", tiff[ifd + 2 + 12 * k:ifd + 14 + 12 * k])
                if tag == 0xB001:
                    images = value
                if tag == 0xB002:
                    entries = value
            if images < 2 or entries is None:
                return []
            base = i + 4 + 4
            return [0] + [base + struct.unpack(e + "I", tiff[entries + 16 * k + 8:entries + 16 * k + 12])[0]
                          for k in range(1, images)]
        i += 2 + length
    return []


def mpo_rows(f, rel):
    """Rows for frames 1... of an MPO: djpeg of each later image, cut at its offset. Each frame
    is composed on a canvas of the first image's size, so a later image of another size is
    listed as an error row (its canvas is not the image alone)."""
    import tempfile
    from PIL import Image
    data = f.read_bytes()
    offsets = mpo_offsets(data)
    if not offsets:
        return []
    with Image.open(f) as im:
        pillow_frames = getattr(im, "n_frames", 1)
    if pillow_frames == 1:
        return []   # Pillow reads it as one JPEG (an Ultra HDR file's MP index lists its gain map)
    if pillow_frames != len(offsets):
        raise SystemExit("%s: MP index lists %d images, Pillow n_frames %d" % (rel, len(offsets), pillow_frames))
    rows, first = [], None
    for k, offset in enumerate(offsets):
        with tempfile.NamedTemporaryFile(suffix=".jpg") as t:
            t.write(data[offset:])
            t.flush()
            r = djpeg(Path(t.name))
        if k == 0:
            first = r.get("size")
            continue
        if r["status"] not in ("ok", "warning") or r["size"] != first:
            raise SystemExit("%s: MPO image %d: %s %s" % (rel, k, r["status"], r.get("size")))
        rows.append((rel, k, r["size"], r["sha"], "djpeg-mpo",
                     "MPO image %d of %d at byte %d (MP Entry); Pillow n_frames %d" % (k + 1, len(offsets), offset,
                                                                                      pillow_frames)))
    return rows


def frame_manifest(files, base, out, title, generated=None, gen_prefix=""):
    """jpeg.tsv / fixtures-jpeg.tsv -> {rel: djpeg result}. `generated`: the corpus md5 list
    (keys relative to base/gen_prefix) to cross-check against."""
    rows, errors, warned, cmyk, pillow_differs, results = [], [], [], [], [], {}
    check = {"equal": 0, "both refuse": 0, "absent": 0}
    disagree = []
    for f in files:
        rel = f.relative_to(base).as_posix()
        r = djpeg(f)
        results[rel] = r
        info = parse_jpeg(f.read_bytes())
        if generated is not None:
            g = generated.get(rel[len(gen_prefix):])
            if g is None:
                check["absent"] += 1
                disagree.append("%s: not in GENERATED-djpeg-md5.tsv" % rel)
            elif g[0] == "ERR" and r["status"] not in ("ok", "warning"):
                check["both refuse"] += 1
            elif g[0] == r.get("md5"):
                check["equal"] += 1
            else:
                disagree.append("%s: GENERATED %s %s, now %s %s" % (
                    rel, g[0], g[1], r.get("md5", r["status"]), r.get("pnm", r.get("msg", ""))))
        if r["status"] not in ("ok", "warning"):
            rows.append((rel, "-", "-", "error", "djpeg", r["msg"]))
            errors.append("%s: %s [%s]" % (rel, r["msg"], describe(info)))
            continue
        reference, note = "djpeg", []
        psize, psha = pillow_rgb_sha(f)
        if psize != r["size"] or psha != r["sha"]:
            pillow_differs.append("%s: %s" % (rel, "Pillow refuses: " + psha if psize is None
                                              else "Pillow gives %s %s" % (psize, psha)))
        smoothed = incomplete_components(info)
        if smoothed:
            note.append("progressive scans leave coefficients of component(s) %s short of full precision:"
                        " libjpeg's block smoothing shapes this image" % ",".join(map(str, smoothed)))
        if len(info["components"]) == 4:
            reference = "djpeg-cmyk"
            kind = {0: "CMYK (Adobe transform 0)", 2: "YCCK (Adobe transform 2)"}.get(
                info["adobe_transform"], "4 components, Adobe transform %s" % info["adobe_transform"])
            agree = psize == r["size"] and psha == r["sha"]
            note.append("%s: djpeg cmyk_to_rgb; Pillow convert('RGB') %s" % (
                kind, "equal" if agree else "differs: %s %s" % (psize, psha)))
            cmyk.append((rel, kind, agree))
        if r["status"] == "warning":
            reference = "djpeg-warning" if reference == "djpeg" else reference + "+warning"
            note.append("djpeg exit 2: " + r["msg"])
            warned.append("%s: %s" % (rel, r["msg"]))
        rows.append((rel, 0, r["size"], r["sha"], reference, "; ".join(note) or "-"))
        rows.extend(mpo_rows(f, rel))
    n_err = len(errors)
    header = [
        title,
        "Reference: %s: `djpeg %s FILE` (ISLOW IDCT, fancy upsampling)," % (djpeg_version(), " ".join(DJPEG_ARGS)),
        "  its P5/P6 output made canonical: RGBA8, grey -> R=G=B, alpha 255, SHA-256. No ICC or EXIF",
        "  orientation applied. One frame (0) per file; for an MPO, one per image of its MP index",
        "  (`djpeg-mpo` rows: djpeg of the image cut at its MP Entry offset; counts equal Pillow's n_frames).",
        "Columns reference and note: `djpeg` = exit 0; `djpeg-warning` = exit 2 (libjpeg-turbo warned, filled",
        "  what was missing or skipped what was extra, and wrote the whole image: that image is the reference;",
        "  the note has the warning); `djpeg-cmyk` = 4 components (CMYK or YCCK).",
        "CMYK/YCCK decision: djpeg 2.1.5 does write these as P6. Its PPM writer (wrppm.c put_cmyk ->",
        "  cmyk.h cmyk_to_rgb) computes R = C*K/255, G = M*K/255, B = Y*K/255 (rounded) on the samples as",
        "  decoded, i.e. as stored (Adobe files store inverted ink, so this is the usual (1-c)(1-k)); YCCK is",
        "  first converted to CMYK by the library. So djpeg stays the reference for them, like every other",
        "  row; Pillow's convert('RGB') (%s) is compared on each such row (note column)." % pillow_version(),
        "Made by Conformance/scripts/make_jpeg_manifests.py. Files: %d, decoded: %d (of which djpeg warned on %d,"
        % (len(files), len(files) - n_err, len(warned)),
        "  4-component: %d, Pillow equal on %d of them), error: %d."
        % (len(cmyk), sum(1 for c in cmyk if c[2]), n_err),
    ]
    if generated is not None:
        header += [
            "Cross-check with the corpus' jpeg/GENERATED-djpeg-md5.tsv (md5 of the PNM of the same djpeg command,",
            "  made when the corpus was assembled): equal md5: %d, both refuse: %d, disagreeing: %d."
            % (check["equal"], check["both refuse"], len(disagree)),
        ] + indented(disagree)
    header += [
        "Second opinion, informational: Pillow's convert('RGB') (its own libjpeg-turbo, default settings: ISLOW,",
        "  fancy upsampling, block smoothing) equals the reference on %d of %d decoded files; where it does not:"
        % (len(files) - n_err - len(pillow_differs), len(files) - n_err),
    ] + (indented(pillow_differs) or ["  (none)"])
    header += ["djpeg warnings (exit 2, image written):"] + (indented(warned) or ["  (none)"])
    header += ["djpeg errors (informational; [structure from the marker walk]):"] + (indented(errors) or ["  (none)"])
    write_tsv(out, header, COLUMNS, rows)
    if generated is not None:
        print("GENERATED-djpeg-md5 cross-check: %d equal, %d both refuse, %d disagreeing"
              % (check["equal"], check["both refuse"], len(disagree)))
        for d in disagree:
            print("  " + d)
    return results


def info_manifest(files, base, out, title, djpeg_results):
    rows = []
    n_ok = 0
    for f in files:
        rel = f.relative_to(base).as_posix()
        p = pillow_info(f)
        info = parse_jpeg(f.read_bytes())
        if not p["ok"]:
            rows.append((rel, "-", "-", "-", "-", "-", "; ".join(["error: " + p["error"]] + p["warnings"])))
            continue
        n_ok += 1
        notes = ["mode=%s" % p["mode"], describe(info)]
        if p["format"] != "JPEG":
            notes.append("Pillow format %s" % p["format"])
        walk_orientation = exif_orientation(info["exif"])
        if walk_orientation is not None and walk_orientation != p["orientation"]:
            notes.append("first APP1 Exif says orientation %d" % walk_orientation)
        walk_progressive = 1 if info["sof"] in (0xC2, 0xC6, 0xCA, 0xCE) else 0
        if info["sof"] is not None and walk_progressive != p["progressive"]:
            notes.append("SOF says progressive=%d" % walk_progressive)
        if info["icc_chunks"]:
            notes.append("ICC in %d APP2 chunk(s)" % len(info["icc_chunks"]))
        d = djpeg_results.get(rel)
        if d is not None and d["status"] not in ("ok", "warning"):
            notes.append("djpeg refuses the file")
        rows.append((rel, p["orientation"], p["width"], p["height"], p["progressive"], p["icc"],
                     "; ".join(notes + p["warnings"])))
    header = [
        title,
        "Reference: %s JpegImagePlugin, Image.open() without decoding the pixels:" % pillow_version(),
        "  orientation = im.getexif().get(274, 1) (EXIF Orientation, 1 when absent); width, height = im.size;",
        "  progressive = 1 when im.info has 'progressive' (SOF2, SOF6, SOF10, SOF14), else 0; iccBytes = length",
        "  of im.info['icc_profile'] (the APP2 ICC_PROFILE chunks joined by Pillow; 0 when none).",
        "  notes: Pillow's mode, the frame header from the marker walk in make_jpeg_manifests.py, and where",
        "  that walk disagrees with Pillow. A file Pillow cannot open gets '-' and the error.",
        "Made by Conformance/scripts/make_jpeg_manifests.py. Files: %d, opened by Pillow: %d, refused: %d."
        % (len(files), n_ok, len(files) - n_ok),
    ]
    write_tsv(out, header, INFO_COLUMNS, rows)


def jpegs_under(d):
    return files_under(d, suffixes=(".jpg", ".jpeg", ".mpo"))


def do_corpus():
    root = corpus_with("jpeg")
    if root is None:
        return
    files = jpegs_under(root / "jpeg")
    title = "JPEG corpus manifest: every *.jpg, *.jpeg, *.mpo under jpeg/ (paths relative to the corpus root)."
    generated = read_generated_md5(root)
    if generated is None:
        print("no jpeg/GENERATED-djpeg-md5.tsv in the corpus; no cross-check")
    d = frame_manifest(files, root, MANIFESTS / "jpeg.tsv", title, generated, "jpeg/")
    info_manifest(files, root, MANIFESTS / "jpeg-info.tsv", title, d)


def do_fixtures():
    files = jpegs_under(FIXTURES / "jpeg")
    if not files:
        print("no JPEG fixtures in %s (run scripts/make_jpeg_fixtures.sh)" % (FIXTURES / "jpeg"))
        return
    title = "Generated JPEG fixtures (paths relative to Conformance/); made by scripts/make_jpeg_fixtures.sh."
    d = frame_manifest(files, CONF, MANIFESTS / "fixtures-jpeg.tsv", title)
    info_manifest(files, CONF, MANIFESTS / "fixtures-jpeg-info.tsv", title, d)
    scaled_manifest(files, CONF, MANIFESTS / "fixtures-jpeg-scaled.tsv", title)


SCALES = ["1/2", "1/4", "1/8"]
SCALED_COLUMNS = ["path", "scale", "size", "sha256", "reference", "note"]


def scaled_manifest(files, base, out, title):
    """fixtures-jpeg-scaled.tsv: every fixture djpeg decodes, at each of libjpeg's reduced
    scales (the scaled IDCTs and upsampling that thumbnails use)."""
    rows = []
    for f in files:
        rel = f.relative_to(base).as_posix()
        for scale in SCALES:
            r = djpeg(f, scale)
            if r["status"] not in ("ok", "warning"):
                continue
            note = []
            smoothed = incomplete_components(parse_jpeg(f.read_bytes()))
            if smoothed:
                note.append("block smoothing shapes this image (component(s) %s incomplete)" % ",".join(map(str, smoothed)))
            if r["status"] == "warning":
                note.append("djpeg exit 2: " + r["msg"])
            rows.append((rel, scale, r["size"], r["sha"], "djpeg", "; ".join(note) or "-"))
    header = [
        title,
        "Scaled decodes: %s: `djpeg %s -scale M/N FILE` for M/N in %s, made canonical as in"
        % (djpeg_version(), " ".join(DJPEG_ARGS), ", ".join(SCALES)),
        "  fixtures-jpeg.tsv. Files djpeg refuses are left out. Made by Conformance/scripts/make_jpeg_manifests.py.",
    ]
    write_tsv(out, header, SCALED_COLUMNS, rows)


def main(argv):
    what = manifests_to_make(argv, __doc__)
    if what is None:
        return 2
    if what in ("all", "corpus"):
        do_corpus()
    if what in ("all", "fixtures"):
        do_fixtures()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
